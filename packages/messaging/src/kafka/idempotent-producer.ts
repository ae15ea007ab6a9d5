import type { Logger } from '@nestjs/common';
import type { Kafka, Producer, ProducerBatch } from 'kafkajs';
import { describe } from '../consumer/deliver';
import { partitioner } from './kafka-client';

/**
 * An idempotent producer (acks from all replicas, one request in flight) that is started again after a failed send.
 *
 * The broker takes an idempotent producer's batches in sequence only, and takes a batch at a sequence it already
 * holds for a duplicate of it. When the broker appended a batch and went down before answering, kafkajs believes the
 * batch unsent and hands its sequence out again: what is sent next at that sequence is refused as out of order, and
 * every batch after it, for as long as the producer lives (the relay re-sending its stretch with what was written
 * since), or answered as that duplicate and dropped (another message of the same size: a dead letter). A new producer
 * has a new producer id, whose sequences start again; a batch the broker had appended is then sent twice, which
 * consumers dedupe by event id.
 */
export class IdempotentProducer {
  private producer: Promise<Producer> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly logger: Logger,
  ) {}

  /** Connects now (a service fails at start rather than at its first send). */
  async connect(): Promise<void> {
    await this.current();
  }

  async sendBatch(batch: ProducerBatch): Promise<void> {
    const producer = this.current();
    try {
      await (await producer).sendBatch(batch);
    } catch (error) {
      await this.drop(producer);
      throw error;
    }
  }

  async disconnect(): Promise<void> {
    await this.drop(this.producer);
  }

  private current(): Promise<Producer> {
    if (this.producer === undefined) {
      const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: partitioner() });
      const connected = producer.connect().then(() => producer);
      // A producer that could not connect is not kept: the next call starts another.
      connected.catch(() => {
        if (this.producer === connected) this.producer = undefined;
      });
      this.producer = connected;
    }
    return this.producer;
  }

  private async drop(producer: Promise<Producer> | undefined): Promise<void> {
    if (producer === undefined) return;
    if (this.producer === producer) this.producer = undefined;
    try {
      await (await producer).disconnect();
    } catch (error) {
      this.logger.warn(`producer not closed cleanly: ${describe(error)}`);
    }
  }
}
