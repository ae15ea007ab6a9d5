import { createKafka } from './kafka-client';

/** Same shape as @storage/platform's ReadinessCheck, which this package does not depend on. */
export interface MessagingReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

/** Ready when a broker answers a metadata request. */
export function kafkaReadiness(brokers: string): MessagingReadinessCheck {
  const kafka = createKafka(brokers, 'readiness');
  return {
    name: 'kafka',
    check: async () => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        await admin.describeCluster();
      } finally {
        await admin.disconnect();
      }
    },
  };
}
