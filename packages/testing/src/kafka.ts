import { appendFileSync } from 'node:fs';

/** The brokers of the real Kafka the run may use, or undefined when the run has none. */
export const testKafkaBrokers = (): string | undefined => process.env.KAFKA_BROKERS || undefined;

/**
 * A suite that needs a real Kafka broker: it runs when `KAFKA_BROKERS` is set and is reported as skipped
 * otherwise. When it runs, it records its name in `KAFKA_SUITES_REPORT`, so CI can prove the Kafka suites ran.
 */
export function describeWithKafka(name: string, body: (brokers: string) => void): void {
  const brokers = testKafkaBrokers();
  if (!brokers) {
    describe.skip(`${name} (needs KAFKA_BROKERS)`, () => body(''));
    return;
  }
  describe(name, () => {
    afterAll(() => {
      const report = process.env.KAFKA_SUITES_REPORT;
      if (report) appendFileSync(report, `${name}\n`);
    });
    body(brokers);
  });
}
