import type { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { DEFAULT_RETRY, type RetryPolicy } from './consumer/retry-policy';
import { EmbeddedTransport } from './embedded/embedded-transport';
import { KafkaTransport } from './kafka/kafka-transport';

export interface EventTransportOptions {
  /** The consumer group: offsets, processed events and dead letters are kept per group. */
  group: string;
  topics: readonly string[];
  /** Set: consume from Kafka. Unset: consume the outbox table (embedded mode). */
  kafkaBrokers?: string | undefined;
  databaseUrl: string;
  /** Kafka topics are created with this many partitions when missing. Default 3. */
  partitions?: number;
  retry?: Partial<RetryPolicy>;
  /** Embedded: poll safety net when no notification arrives. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Embedded: log rows read per query. Default 200. */
  batchSize?: number;
  /** Messages of different keys handled at once (Kafka: per partition); one key's messages stay in order. Default 8. */
  lanes?: number;
}

const DEFAULT_LANES = 8;

/**
 * The transport strategy for `app.connectMicroservice({ strategy: eventTransport(...) })`; `@EventPattern(type)`
 * handlers receive the parsed envelope (and an EventContext with `@Ctx()`) in both modes.
 */
export function eventTransport(options: EventTransportOptions): Server & CustomTransportStrategy {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  if (options.kafkaBrokers) {
    return new KafkaTransport({
      group: options.group,
      topics: options.topics,
      kafkaBrokers: options.kafkaBrokers,
      partitions: options.partitions ?? 3,
      databaseUrl: options.databaseUrl,
      retry,
      lanes: options.lanes ?? DEFAULT_LANES,
    });
  }
  return new EmbeddedTransport({
    group: options.group,
    topics: options.topics,
    databaseUrl: options.databaseUrl,
    retry,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    batchSize: options.batchSize ?? 200,
    lanes: options.lanes ?? DEFAULT_LANES,
  });
}
