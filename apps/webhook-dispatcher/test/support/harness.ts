import type { DataSource } from 'typeorm';
import { createDataSource } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { AddressPolicy, parseSubnetList, type HostResolver, type SecretKeyring } from '@storage/webhooks';
import { DeliveryClient } from '../../src/delivery/delivery-client';
import { DeliveryEngine, DEFAULT_ENGINE_OPTIONS, type DeliveryEngineOptions } from '../../src/delivery/delivery-engine';
import { MessageStore } from '../../src/delivery/message-store';
import { fanOut, type FanOutEvent } from '../../src/fan-out/fan-out';
import { FakeClock, ScriptedRandom } from './fakes';
import type { TestCertificate } from './receiver';
import { testKeyring } from './secret-keys';

export interface Harness {
  database: TestDatabase;
  dataSource: DataSource;
  clock: FakeClock;
  random: ScriptedRandom;
  engine: (
    options?: Partial<DeliveryEngineOptions> & { timeoutMs?: number; allowed?: string; resolve?: HostResolver; keyring?: SecretKeyring },
  ) => DeliveryEngine;
  publish: (event: FanOutEvent) => Promise<number>;
  close: () => Promise<void>;
}

/** A migrated database, a fake clock and engines built on them, talking to the test receiver's CA. */
/** The fake clock starts at the real time (whole seconds) so standardwebhooks' timestamp tolerance accepts first deliveries. */
export async function createHarness(certificate: TestCertificate, start = new Date(Math.floor(Date.now() / 1000) * 1000)): Promise<Harness> {
  const database = await createTestDatabase();
  const dataSource = await createDataSource({ url: database.url, applicationName: 'dispatcher-test' }).initialize();
  const clock = new FakeClock(start);
  const random = new ScriptedRandom([0.5]);
  const clients: DeliveryClient[] = [];
  return {
    database,
    dataSource,
    clock,
    random,
    engine: (options = {}) => {
      const client = new DeliveryClient({
        policy: new AddressPolicy(parseSubnetList(options.allowed ?? '127.0.0.1/32')),
        testCa: certificate.cert,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
      });
      clients.push(client);
      return new DeliveryEngine(new MessageStore(dataSource), options.keyring ?? testKeyring, client, clock, random, { ...DEFAULT_ENGINE_OPTIONS, ...options });
    },
    publish: (event) => dataSource.transaction((manager) => fanOut(manager, event, { now: clock.now() })),
    close: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await dataSource.destroy();
      await database.drop();
    },
  };
}
