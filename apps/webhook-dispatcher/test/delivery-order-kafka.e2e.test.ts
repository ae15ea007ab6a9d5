import { TOPICS } from '@storage/domain';
import { OutboxRelay } from '@storage/messaging';
import { describeWithKafka } from '@storage/testing';
import { deliveryOrderSuite } from './support/delivery-order-suite';
import { freshGroup } from './support/kafka';

/** The Kafka transport: the relay publishes the outbox, keyed by rental, and the dispatcher consumes the topics. */
describeWithKafka('delivery order per rental (Kafka transport)', (brokers) => {
  let relay: OutboxRelay | undefined;
  deliveryOrderSuite({
    start: async (databaseUrl) => {
      relay = new OutboxRelay({
        service: 'test-producer',
        kafkaBrokers: brokers,
        partitions: 3,
        databaseUrl,
        topics: TOPICS,
        batchSize: 100,
        pollIntervalMs: 200,
        lagReportIntervalMs: 60_000,
      });
      await relay.start();
      return { KAFKA_BROKERS: brokers, KAFKA_TOPIC_PARTITIONS: '3', DISPATCHER_CONSUMER_GROUP: await freshGroup(brokers) };
    },
    stop: async () => {
      await relay?.stop();
    },
  });
});
