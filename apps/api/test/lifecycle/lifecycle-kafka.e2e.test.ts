import { randomUUID } from 'node:crypto';
import { BILLING_TOPIC, parseEnvelope, TENANT_LIFECYCLE_TOPIC, type EventEnvelope } from '@storage/domain';
import { describeWithKafka, eventually } from '@storage/testing';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { expectWalkEvents, walkLifecycle } from '../support/lifecycle-walk';

describeWithKafka('rental lifecycle, Kafka transport (outbox relay to the broker)', (brokers) => {
  let api: LifecycleApi;
  let consumer: Consumer;
  const received: { topic: string; key: string | null; envelope: EventEnvelope }[] = [];

  beforeAll(async () => {
    api = await startLifecycleApi({ kafkaBrokers: brokers });
    consumer = new Kafka({ clientId: 'lifecycle-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).consumer({
      groupId: `lifecycle-test-${randomUUID()}`,
    });
    await consumer.connect();
    // The topics are shared with other suites: every message is kept, and the walk's rentals picked out below.
    await consumer.subscribe({ topics: [TENANT_LIFECYCLE_TOPIC, BILLING_TOPIC], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        received.push({ topic, key: message.key?.toString() ?? null, envelope: parseEnvelope(JSON.parse(message.value!.toString())) });
      },
    });
  }, 60_000);

  afterAll(async () => {
    await consumer?.disconnect();
    await api?.close();
  });

  it('walks a lead from creation to move-out; the lifecycle topic carries each event once, in order per rental', async () => {
    const walk = await walkLifecycle(api);
    const ofWalk = (topic: string) => received.filter((message) => message.topic === topic && walk.rentals.includes(message.key ?? ''));

    await eventually(() => expect(ofWalk(TENANT_LIFECYCLE_TOPIC)).toHaveLength(walk.expected.length), { timeoutMs: 30_000 });
    const lifecycle = ofWalk(TENANT_LIFECYCLE_TOPIC);
    lifecycle.forEach((message) => expect(message.key).toBe(message.envelope.key));
    // The transfer starts a second rental, a second key: Kafka keeps the order of each rental, not across them.
    expectWalkEvents(
      lifecycle.map((message) => message.envelope),
      walk,
      'per-rental',
    );

    // The move-in's two charges, then the payment.
    await eventually(() => expect(ofWalk(BILLING_TOPIC)).toHaveLength(3), { timeoutMs: 30_000 });
    expect(ofWalk(BILLING_TOPIC).map((fact) => fact.envelope.type)).toEqual(['charge-posted', 'charge-posted', 'payment-recorded']);
    expect(ofWalk(BILLING_TOPIC)[2].envelope).toMatchObject({
      type: 'payment-recorded',
      payload: { ...walk.payment, amountInPennies: 5000, balanceAfterInPennies: walk.moveInInPennies - 5000 },
    });
  }, 90_000);
});
