import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { certificate, eventually, Receiver } from '@storage/testing';
import { PublicApi } from '../bench/public-api';
import { changeKeyOf, RentChanges } from '../bench/rent-changes';
import { startSystem, stopWithCtrlC, systemEnv, type RunningSystem } from './support/system';

const PORTFOLIO = 'demo';
/** Rent changes in flight at once while the process is killed. */
const WRITERS = 8;
/** Answered rent changes before the kill. */
const ANSWERED_BEFORE_KILL = 120;

/**
 * The three apps share `npm start`'s one process: a kill -9 of it, while rent changes are answered and delivered,
 * loses none. Every rent change the api answered 200 before the kill is delivered to its endpoint after the next
 * start (at least once), whatever stage its event had reached: in the outbox, fanned out, or on its way.
 */
describe('npm start killed (SIGKILL) under load', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let apiPort: number;
  let receiver: Receiver;
  let system: RunningSystem | undefined;
  const delivered = new Set<string>();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'one-process-crash-'));
    const tls = await certificate(dataDir);
    // The receiver listens on loopback with a certificate of its own: the dispatcher is told to reach and trust it.
    ({ env, apiPort } = await systemEnv(dataDir, { WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32', NODE_EXTRA_CA_CERTS: tls.certFile }));
    receiver = new Receiver(tls, (event) => delivered.add(changeKeyOf(event)));
  });

  afterAll(async () => {
    if (system) await stopWithCtrlC(system);
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('delivers every rent change answered before the kill once it starts again', async () => {
    system = await startSystem(env);
    const api = new PublicApi(apiPort, (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim());
    await api.ok('POST', '/api/v1/webhooks/subscriptions', {
      vendorName: 'crash test',
      targetUrl: `${await receiver.listen()}/rent-changes`,
      eventTypes: ['rent-change'],
      description: 'one process killed under load',
      portfolio: PORTFOLIO,
    });

    // The writers change the portfolio's rentals in turn, each a new rent, until the kill.
    const answered: string[] = [];
    const changes = await RentChanges.of(api, PORTFOLIO, (change) => answered.push(change));
    let killed = false;
    let sent = 0;
    const killedSystem = system;
    const writers = Array.from({ length: WRITERS }, async () => {
      while (!killed) {
        await changes.send(sent++);
        if (answered.length >= ANSWERED_BEFORE_KILL && !killed) {
          killed = true;
          process.kill(killedSystem.process.pid!, 'SIGKILL');
        }
      }
    });
    await Promise.all(writers);
    api.close();
    system = undefined;
    // Its PostgreSQL is stopped by the sentinel; the next start needs the port and the cluster back.
    await eventually(() => expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false), { timeoutMs: 30_000, intervalMs: 200 });
    const outstanding = answered.filter((change) => !delivered.has(change)).length;
    process.stdout.write(`killed with ${answered.length} rent changes answered, ${outstanding} of them not yet delivered\n`);

    system = await startSystem(env);
    // A message on its way at the kill is sent again once its lease (60 s) has ended, found by the next poll (30 s).
    await eventually(() => expect(answered.filter((change) => !delivered.has(change))).toEqual([]), { timeoutMs: 180_000, intervalMs: 250 });
  }, 480_000);
});
