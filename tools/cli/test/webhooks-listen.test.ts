import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWithKafka, eventually } from '@storage/testing';
import { localReceiver, readyOf, startListen, verified, type Listener } from './support/listen';
import { runCli, startSystem, stopWithCtrlC, systemEnv, type RunningSystem } from './support/system';

/** The rental an event is about: `unitRental.rentalRecordUuid`, or `rentalRecordUuid` at the top (as the envelope's key is found). */
function rentalOf(event: Record<string, unknown>): unknown {
  const unitRental = event.unitRental as { rentalRecordUuid?: unknown } | undefined;
  return unitRental?.rentalRecordUuid ?? event.rentalRecordUuid;
}

/**
 * Issue 35: `npm run cli -- webhooks listen` on a developer's machine receives the portfolio's webhooks through an
 * outgoing stream, signed with the session's secret, and forwards each to a local URL; killed and started again within
 * the session's grace, it gets what was emitted meanwhile.
 */
function listenSuite(kafkaBrokers: string | undefined): void {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let system: RunningSystem;
  let apiPort: number;
  let apiKey: string;
  let receiver: Awaited<ReturnType<typeof localReceiver>>;
  const listeners: Listener[] = [];
  const listenArgs = () => ['--api', `http://127.0.0.1:${apiPort}`, '--portfolio', 'demo', '--forward-to', receiver.url];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'webhooks-listen-'));
    ({ env, apiPort } = await systemEnv(dataDir, { TMPDIR: dataDir, ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}) }));
    system = await startSystem(env);
    apiKey = (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim();
    receiver = await localReceiver();
  }, 180_000);

  afterAll(async () => {
    for (const { process: child } of listeners) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    receiver?.server.close();
    if (system) expect(await stopWithCtrlC(system)).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read as the test expects them
  const api = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`http://127.0.0.1:${apiPort}${url}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };

  /** Changes the rent of the facility's `n`th active rental: a real rent-change event of that rental. */
  async function changeRent(n: number): Promise<string> {
    const [facility] = (await api('GET', '/shopping/demo/v1/facilities')).body as { facilityUuid: string }[];
    const ops = `/api/demo/portfolios/v1/facilities/${facility.facilityUuid}/rentalRecords`;
    const rental = (await api('GET', `${ops}?status=ACTIVE&limit=50`)).body.rentalRecords[n] as { rentalRecordUuid: string; rentInPennies: number };
    const effectiveDate = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const changed = await api('POST', `${ops}/${rental.rentalRecordUuid}/rentChange`, { newRentInPennies: rental.rentInPennies + 100, effectiveDate });
    expect(changed.status).toBe(200);
    return rental.rentalRecordUuid;
  }

  /** The portal's home page, as the link of operation 20 opens it. */
  async function portalHome(): Promise<string> {
    const link = (await api('GET', '/api/v1/webhooks/dashboard-link')).body as { url: string };
    const login = await fetch(link.url, { redirect: 'manual' });
    const cookie = login.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    const home = await fetch(new URL('/portal', link.url), { headers: { cookie } });
    expect(home.status).toBe(200);
    return home.text();
  }

  it('forwards a test event and a real lifecycle event, each verifiable with the printed secret', async () => {
    const listener = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...listenArgs());
    listeners.push(listener);
    const { secret, session } = await readyOf(listener);
    expect(listener.output()).toMatch(/Ready! Forwarding moved-in, .*transfer of portfolio demo to http:\/\/127\.0\.0\.1/);

    expect((await api('POST', '/api/v1/webhooks/subscriptions/test', { eventType: 'moved-in', portfolio: 'demo' })).status).toBe(200);
    await eventually(() => expect(receiver.received.filter((delivery) => verified(secret, delivery).test)).toHaveLength(1), { timeoutMs: 60_000 });

    const rental = await changeRent(0);
    await eventually(
      () => {
        const real = receiver.received.map((delivery) => verified(secret, delivery)).filter((body) => !body.test);
        expect(real.map((body) => rentalOf(body.data[0]))).toContain(rental);
      },
      { timeoutMs: 60_000 },
    );
    // A line per event: its type, its hook-id and the local answer, printed once that answer is in (after the local
    // receiver has the delivery).
    await eventually(() => {
      expect(listener.output()).toMatch(/moved-in\s+msg_\w+\s+-> 200 \(\d+ ms\)/);
      expect(listener.output()).toMatch(/rent-change\s+msg_\w+\s+-> 200 \(\d+ ms\)/);
    });
    // The session is an endpoint of the portfolio while it lasts: the portal lists it.
    expect(await portalHome()).toContain(`listen:${session}`);
  }, 180_000);

  it('gets what was emitted while it was killed, once started again within a minute', async () => {
    const first = listeners[0];
    const { session, secret } = await readyOf(first);
    process.kill(-first.process.pid!, 'SIGKILL');
    await first.exited;
    const before = receiver.received.length;
    const rental = await changeRent(1);

    const again = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...listenArgs());
    listeners.push(again);
    // The same session, so the same secret: the integrator's configured secret still verifies.
    expect(await readyOf(again)).toEqual({ session, secret });
    await eventually(
      () => {
        const later = receiver.received.slice(before).map((delivery) => verified(secret, delivery));
        expect(later.map((body) => rentalOf(body.data[0]))).toContain(rental);
      },
      { timeoutMs: 60_000 },
    );
    // Ctrl-C: the whole group, as a terminal sends it. It ends the session: gone from the portal, and the next listen is a new one.
    process.kill(-again.process.pid!, 'SIGINT');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toMatch(/still working/);
    expect(again.output()).toContain('Session ended.');
    expect(await portalHome()).not.toContain(`listen:${session}`);
    const next = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...listenArgs());
    listeners.push(next);
    expect((await readyOf(next)).session).not.toBe(session);
    process.kill(-next.process.pid!, 'SIGINT');
    expect(await next.exited).toBe(0);
  }, 180_000);

  it('says when --forward-to refuses the connection or does not answer, and the dispatcher tries again', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const refusing = createServer();
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const closedPort = (refusing.address() as AddressInfo).port;
    await new Promise((resolve) => refusing.close(resolve));
    try {
      const target = (port: number) => [
        '--api',
        `http://127.0.0.1:${apiPort}`,
        '--portfolio',
        'demo',
        '--events',
        'transfer',
        '--forward-to',
        `http://127.0.0.1:${port}/hook`,
      ];
      const hanging = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...target((silent.address() as AddressInfo).port));
      const refused = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...target(closedPort));
      listeners.push(hanging, refused);
      await Promise.all([readyOf(hanging), readyOf(refused)]);
      expect((await api('POST', '/api/v1/webhooks/subscriptions/test', { eventType: 'transfer', portfolio: 'demo' })).status).toBe(200);
      const line = (reason: string) => new RegExp(`transfer\\s+(msg_\\w+)\\s+-> http://127\\.0\\.0\\.1:\\d+/hook did not answer: ${reason}`, 'g');
      // Each attempt is a line: the first, then its retry (same hook-id) 5 s later.
      const attempts = (listener: Listener, reason: string) => [...listener.output().matchAll(line(reason))].map((match) => match[1]);
      await eventually(
        () => {
          const tries = attempts(refused, 'connect ECONNREFUSED');
          expect(tries.length).toBeGreaterThanOrEqual(2);
          expect(new Set(tries).size).toBe(1);
        },
        { timeoutMs: 90_000 },
      );
      await eventually(() => expect(attempts(hanging, '.*timeout')).not.toEqual([]), { timeoutMs: 90_000 });
      for (const listener of [hanging, refused]) process.kill(-listener.process.pid!, 'SIGINT');
      expect(await Promise.all([hanging.exited, refused.exited])).toEqual([0, 0]);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 180_000);

  it('refuses a read-only key, an unknown event type and a --forward-to that is not a URL, saying why', async () => {
    const created = runCli(env, 'api-keys', 'create', '--scope', 'read', '--portfolio', 'demo');
    const readKey = /sk_\S+/.exec(created.stdout)![0];
    const reader = startListen(env, ...listenArgs(), '--api-key', readKey);
    expect(await reader.exited).toBe(1);
    expect(reader.output()).toMatch(/refused the session \(403\): This API key may only read/);

    const unknown = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...listenArgs(), '--events', 'moved-in,nope');
    expect(await unknown.exited).not.toBe(0);
    expect(unknown.output()).toMatch(/unknown event type\(s\) nope/);

    const notUrl = startListen({ ...env, STORAGE_API_KEY: apiKey }, '--api', `http://127.0.0.1:${apiPort}`, '--portfolio', 'demo', '--forward-to', 'localhost');
    expect(await notUrl.exited).not.toBe(0);
    expect(notUrl.output()).toMatch(/--forward-to.*http\(s\) URL/s);
  }, 120_000);

  // Last: it stops the system (afterAll's stop then finds it stopped).
  it('is told when the system stops, which does not wait for the stream to end, and waits for it to come back', async () => {
    const listener = startListen({ ...env, STORAGE_API_KEY: apiKey }, ...listenArgs());
    listeners.push(listener);
    await readyOf(listener);
    expect(await stopWithCtrlC(system)).toBe(0);
    // Closed by the dispatcher as it stops, not cut when its process ends.
    await eventually(() => expect(listener.output()).toMatch(/Disconnected \(the dispatcher is stopping\)/), { timeoutMs: 30_000 });
    // And it waits for the platform to come back rather than giving up.
    await eventually(() => expect(listener.output()).toMatch(/The api at http:\/\/127\.0\.0\.1:\d+ is not reachable/), { timeoutMs: 30_000 });
    expect(listener.process.exitCode).toBeNull();
  }, 120_000);
}

describe('webhooks listen, embedded transport', () => listenSuite(undefined));
describeWithKafka('webhooks listen, through Kafka', (brokers) => listenSuite(brokers));
