import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { EventEnvelope } from '@storage/domain';
import { deadLetterTopic } from '../dist';
import { until } from './until';

/** The consumer's process: handled event ids, and a SIGKILL that resolves once it is gone. */
interface Consumer {
  handled: (eventId: string) => boolean;
  kill: () => Promise<void>;
}

/**
 * How soon a Kafka consumer SIGKILLed and started again with the same group delivers again: from its restart to its
 * handling of an event sent right after, in ms, for each of `rounds` kills. Uses a topic of its own, deleted after.
 */
export async function resumeAfterKill(brokers: string, databaseUrl: string, event: () => EventEnvelope, rounds: number): Promise<number[]> {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const topic = `bench.restart-${randomUUID().slice(0, 8)}`;
  const group = `bench-restart-${randomUUID().slice(0, 8)}`;
  const producer = kafka.producer();
  await producer.connect();
  const send = async (): Promise<string> => {
    const envelope = event();
    await producer.send({ topic, acks: -1, messages: [{ key: envelope.eventId, value: JSON.stringify(envelope) }] });
    return envelope.eventId;
  };
  const start = (): Consumer => {
    const child = spawn(process.execPath, [path.join(__dirname, 'kafka-consumer.js')], {
      env: { PATH: process.env.PATH, GROUP: group, TOPIC: topic, KAFKA_BROKERS: brokers, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return {
      handled: (eventId) => output.includes(`handled ${eventId}\n`),
      kill: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
    };
  };
  let consumer = start();
  try {
    // Its group membership is live once it has handled an event (the first sends create the topic).
    const warmUp = await send();
    await until(() => consumer.handled(warmUp), 120_000);
    const resumedMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await consumer.kill();
      const restarted = performance.now();
      consumer = start();
      const eventId = await send();
      await until(() => consumer.handled(eventId), 120_000);
      resumedMs.push(performance.now() - restarted);
    }
    return resumedMs;
  } finally {
    await consumer.kill();
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, deadLetterTopic(topic)] }).catch(() => undefined);
    await admin.disconnect();
  }
}
