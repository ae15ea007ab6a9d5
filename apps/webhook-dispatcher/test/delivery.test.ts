import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { eventually } from '@storage/testing';
import { generateSecret, removeSubscription, rotateEndpointSecret, SecretKeyring, signatureEntry, signingKey } from '@storage/webhooks';
import { MessageStore } from '../src/delivery/message-store';
import { RETRY_SCHEDULE_MS } from '../src/delivery/retry-policy';
import { testEvent } from '../src/fan-out/test-event';
import { seedEndpoint } from './support/endpoints';
import { sampleEvent } from './support/events';
import { createHarness, type Harness } from './support/harness';
import { makeCertificate, TestReceiver, type ReceivedRequest, type TestCertificate } from './support/receiver';
import { TEST_SECRET_KEY, testKeyring } from './support/secret-keys';
import { query, sql } from '@storage/persistence';

/** What standardwebhooks expects: the spec's hook-* headers under their webhook-* names. */
function verify(secret: string, request: ReceivedRequest): unknown {
  const header = (name: string) => String(request.headers[`hook-${name}`]);
  return new Webhook(secret).verify(request.body, {
    'webhook-id': header('id'),
    'webhook-timestamp': header('timestamp'),
    'webhook-signature': header('signature'),
  });
}

const SECOND = 1_000;

describe('delivery engine', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let h: Harness;

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
  });
  afterAll(async () => {
    await receiver.stop();
    certificate.cleanup();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.respond = (_req, res) => {
      res.statusCode = 204;
      res.end();
    };
    h = await createHarness(certificate);
  });
  afterEach(async () => h.close());

  const onlyMessage = async () => (await query(h.dataSource, sql<Record<string, unknown>>('SELECT * FROM webhook_messages')))[0];
  const attempts = async () => await query(h.dataSource, sql<Record<string, unknown>>('SELECT * FROM webhook_attempts ORDER BY attempted_at, id'));
  const endpoint = async (id: string) => (await query(h.dataSource, sql<Record<string, unknown>>('SELECT * FROM webhook_endpoints WHERE id = $1'), [id]))[0];

  it('delivers every event type signed so that standardwebhooks verifies it, body {"data":[payload]}', async () => {
    const { secret } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    for (const type of PUBLIC_EVENT_TYPES) await h.publish(sampleEvent(type));
    expect(await h.engine().runOnce()).toBe(7);
    expect(receiver.requests.map((r) => (verify(secret, r) as { data: { event: string }[] }).data[0].event).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
    const [first] = receiver.requests;
    expect(first.headers['hook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(first.headers['hook-timestamp']).toBe(String(Math.floor(h.clock.now().getTime() / 1000)));
    expect(first.headers['content-type']).toBe('application/json');
    const recorded = await attempts();
    expect(recorded).toHaveLength(7);
    expect(recorded.every((a) => a.succeeded === true && a.status_code === 204)).toBe(true);
    expect((await query(h.dataSource, sql<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_messages WHERE status = 'succeeded'`)))[0].n).toBe(7);
  });

  it('marks operation 19\'s messages in the body: "test": false for a real event, true for a test event, under the signature', async () => {
    const { secret } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    const real = sampleEvent('moved-in');
    const test = testEvent('acme', 'moved-in', h.clock.now());
    await h.publish(real);
    await h.publish(test);
    expect(await h.engine().runOnce()).toBe(2);
    const bodies = receiver.requests.map((r) => verify(secret, r) as { data: { eventId: string }[]; test: unknown });
    expect(bodies.map((body) => [body.data[0].eventId, body.test]).sort()).toEqual(
      [
        [real.eventId, false],
        [test.eventId, true],
      ].sort(),
    );
  });

  it('adds "test" to a body stored before it existed, true only for operation 19\'s (all-zero rental), and signs what it sends', async () => {
    const { id: endpointId, secret } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    const real = sampleEvent('rent-change');
    const test = testEvent('acme', 'rent-change', h.clock.now());
    for (const [n, event] of [real, test].entries()) {
      await query(
        h.dataSource,
        sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, next_attempt_at, created_at)
             VALUES ($1, $2, 'acme', $3, $4, $5, 'pending', 0, $6, $6)`),
        [`msg_legacy${n}`, endpointId, event.eventId, event.type, JSON.stringify({ data: [event.payload] }), h.clock.now()],
      );
    }
    expect(await h.engine().runOnce()).toBe(2);
    const bodies = receiver.requests.map((r) => verify(secret, r) as { data: unknown[]; test: unknown });
    expect(bodies.map((body) => [(body.data[0] as { eventId: string }).eventId, body.test]).sort()).toEqual(
      [
        [real.eventId, false],
        [test.eventId, true],
      ].sort(),
    );
    expect(bodies.find((body) => body.test === false)?.data).toEqual([JSON.parse(JSON.stringify(real.payload))]);
  });

  it('records the attempts finished with one whose endpoint was deleted meanwhile, instead of losing them all', async () => {
    const gone = await seedEndpoint(h.dataSource, { url: receiver.url('/gone') });
    const kept = await seedEndpoint(h.dataSource, { url: receiver.url('/kept') });
    // Both requests are held until the first endpoint is deleted, then answered at once: their attempts finish
    // together and are recorded in one group, one of them for a message that no longer exists.
    const held: (() => void)[] = [];
    receiver.respond = (_request, res) => {
      held.push(() => {
        res.statusCode = 204;
        res.end();
      });
    };
    await h.publish(sampleEvent('moved-in'));
    const engine = h.engine();
    engine.start();
    try {
      await eventually(() => expect(held).toHaveLength(2));
      await removeSubscription(h.dataSource, gone.id);
      for (const answer of held) answer();
      await eventually(async () => {
        const rows = await query(
          h.dataSource,
          sql<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_messages WHERE endpoint_id = $1'),
          [kept.id],
        );
        expect(rows).toEqual([{ status: 'succeeded', attempts: 1 }]);
      });
      expect((await attempts()).map((a) => a.endpoint_id)).toEqual([kept.id]);
    } finally {
      await engine.stop();
    }
  });

  it('creates one message per event and endpoint: a replayed event is not delivered again', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    const event = sampleEvent('moved-in');
    expect(await h.publish(event)).toBe(1);
    expect(await h.publish(event)).toBe(0);
    await h.engine().runOnce();
    expect(await h.publish(event)).toBe(0);
    expect(await h.engine().runOnce()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it('retries on the schedule with the same hook-id, a fresh timestamp each try, then gives up', async () => {
    receiver.respond = (_req, res) => {
      res.statusCode = 500;
      res.end('x'.repeat(30_000));
    };
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    await h.publish(sampleEvent('rent-change'));
    const engine = h.engine();
    const start = h.clock.now().getTime();
    let elapsed = 0;
    for (const wait of [0, ...RETRY_SCHEDULE_MS]) {
      h.clock.advance(wait - 1);
      expect(await engine.runOnce()).toBe(0);
      h.clock.advance(1);
      elapsed += wait;
      expect(await engine.runOnce()).toBe(1);
      expect(Number(receiver.requests.at(-1)!.headers['hook-timestamp'])).toBe(Math.floor((start + elapsed) / 1000));
    }
    expect(new Set(receiver.requests.map((r) => r.headers['hook-id'])).size).toBe(1);
    expect(receiver.requests).toHaveLength(8);
    const stored = await onlyMessage();
    expect(stored).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    const recorded = await attempts();
    expect(recorded.map((a) => a.status_code)).toEqual(Array(8).fill(500));
    expect(recorded.every((a) => (a.response_body as string).length === 20 * 1024)).toBe(true);
    h.clock.advance(30 * 86_400_000);
    expect(await engine.runOnce()).toBe(0);
  });

  it('applies ±20 % jitter to each wait', async () => {
    receiver.respond = (_req, res) => {
      res.statusCode = 503;
      res.end();
    };
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    await h.publish(sampleEvent('auction'));
    h.random = Object.assign(h.random, { next: () => 0 });
    await h.engine().runOnce();
    expect((await onlyMessage()).next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 4 * SECOND));
    h.clock.advance(4 * SECOND);
    h.random = Object.assign(h.random, { next: () => 0.999_999 });
    await h.engine().runOnce();
    expect((await onlyMessage()).next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 360 * SECOND));
  });

  it('honours Retry-After and waits at least 60 s after a 429 or a timeout', async () => {
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    let answer: 'retry-after' | '429' | 'hang' = 'retry-after';
    receiver.respond = (_req, res) => {
      if (answer === 'hang') return; // never answers: the client's timeout fires
      res.statusCode = answer === '429' ? 429 : 503;
      if (answer === 'retry-after') res.setHeader('retry-after', '600');
      res.end();
    };
    // The default timeout while the receiver answers: a loaded machine may take more than a short one to answer.
    const engine = h.engine();
    await h.publish(sampleEvent('transfer'));
    await engine.runOnce();
    expect((await onlyMessage()).next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 600 * SECOND));

    h.clock.advance(600 * SECOND);
    answer = '429';
    await engine.runOnce();
    // Second wait is 5 min by schedule, above the floor; check the floor on a fresh message.
    expect((await onlyMessage()).next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 300 * SECOND));
    await h.publish(sampleEvent('moved-out'));
    await engine.runOnce();
    const [fresh] = await query(h.dataSource, sql<Record<string, unknown>>(`SELECT * FROM webhook_messages WHERE event_type = 'moved-out'`));
    expect(fresh.next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 60 * SECOND));

    answer = 'hang';
    await h.publish(sampleEvent('moved-in'));
    await h.engine({ timeoutMs: 300 }).runOnce();
    const [timedOut] = await query(h.dataSource, sql<Record<string, unknown>>(`SELECT * FROM webhook_messages WHERE event_type = 'moved-in'`));
    expect(timedOut.next_attempt_at).toEqual(new Date(h.clock.now().getTime() + 60 * SECOND));
    const [attempt] = await query(h.dataSource, sql<Record<string, unknown>>(`SELECT * FROM webhook_attempts WHERE message_id = $1`), [timedOut.id]);
    expect(attempt).toMatchObject({ succeeded: false, status_code: null, error: 'no answer within 300 ms' });
    expect((await endpoint(id)).disabled_at).toBeNull();
  });

  it('disables the endpoint on 410 Gone and stops its other messages', async () => {
    receiver.respond = (_req, res) => {
      res.statusCode = 410;
      res.end('gone');
    };
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    await h.publish(sampleEvent('moved-in'));
    await h.engine({ concurrency: 1 }).runOnce();
    const disabled = await endpoint(id);
    expect(disabled.disabled_at).toEqual(h.clock.now());
    expect(disabled.disabled_reason).toMatch(/410/);
    expect(await h.publish(sampleEvent('moved-out'))).toBe(0);
    expect(await h.engine().runOnce()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it('disables an endpoint after 5 days of continuous failure, and a success resets the count', async () => {
    let status = 500;
    receiver.respond = (_req, res) => {
      res.statusCode = status;
      res.end();
    };
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    const engine = h.engine();
    const day = 86_400_000;
    const failingFor = async (days: number) => {
      for (let i = 0; i < days; i += 1) {
        await h.publish(sampleEvent('rent-change'));
        await engine.runOnce();
        h.clock.advance(day);
      }
    };
    await failingFor(4);
    status = 200;
    await h.publish(sampleEvent('rent-change'));
    await engine.runOnce();
    expect((await endpoint(id)).failing_since).toBeNull();

    status = 500;
    const firstFailure = h.clock.now();
    await failingFor(5);
    expect((await endpoint(id)).failing_since).toEqual(firstFailure);
    expect((await endpoint(id)).disabled_at).toBeNull();
    await h.publish(sampleEvent('rent-change'));
    await engine.runOnce();
    const disabled = await endpoint(id);
    expect(disabled.disabled_reason).toBe('every delivery failed for 5 days');
    const pending = await query(h.dataSource, sql<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_messages WHERE status = 'pending'`));
    expect(pending[0].n).toBe(0);
  });

  it('signs with the old secret beside the new one for 24 hours after a rotation', async () => {
    const { id, secret: oldSecret } = await seedEndpoint(h.dataSource, { url: receiver.url() });
    // One engine throughout: the key it opened before the rotation must not sign after it.
    const engine = h.engine();
    await h.publish(sampleEvent('rent-change'));
    await engine.runOnce();
    expect(() => verify(oldSecret, receiver.requests[0])).not.toThrow();
    receiver.requests.length = 0;
    const newSecret = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    await rotateEndpointSecret(h.dataSource, 'acme', id, testKeyring.seal(newSecret, id), new Date(h.clock.now().getTime() + 86_400_000));
    await h.publish(sampleEvent('moved-in'));
    await engine.runOnce();
    const [during] = receiver.requests;
    expect(String(during.headers['hook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(oldSecret, during)).not.toThrow();
    expect(() => verify(newSecret, during)).not.toThrow();

    h.clock.advance(86_400_000);
    await h.publish(sampleEvent('moved-out'));
    await engine.runOnce();
    const after = receiver.requests[1];
    const timestamp = Number(after.headers['hook-timestamp']);
    expect(after.headers['hook-signature']).toBe(signatureEntry(signingKey(newSecret), String(after.headers['hook-id']), timestamp, after.body));
  });

  describe('sealed secrets', () => {
    const newKey = { id: 'test-2', key: randomBytes(32) };
    const notSent = async () => {
      const [attempt] = await attempts();
      expect(receiver.requests).toHaveLength(0);
      expect(attempt).toMatchObject({ succeeded: false, status_code: null });
      return String(attempt.error);
    };

    it('signs with a secret stored bare before sealing (legacy rows)', async () => {
      const { id, secret } = await seedEndpoint(h.dataSource, { url: receiver.url(), sealWith: null });
      expect((await endpoint(id)).secret).toBe(secret);
      await h.publish(sampleEvent('moved-in'));
      await h.engine().runOnce();
      expect(receiver.requests).toHaveLength(1);
      expect(() => verify(secret, receiver.requests[0])).not.toThrow();
    });

    it('opens a secret sealed with an older key after a key rotation', async () => {
      const { secret } = await seedEndpoint(h.dataSource, { url: receiver.url() });
      await h.publish(sampleEvent('moved-in'));
      await h.engine({ keyring: new SecretKeyring([newKey, TEST_SECRET_KEY]) }).runOnce();
      expect(() => verify(secret, receiver.requests[0])).not.toThrow();
    });

    it('sends nothing when the secret is sealed with a key it lacks, and says which key', async () => {
      const { id } = await seedEndpoint(h.dataSource, { url: receiver.url(), sealWith: new SecretKeyring([newKey]) });
      await h.publish(sampleEvent('moved-in'));
      await h.engine().runOnce();
      expect(await notSent()).toBe(
        `not sent: StoredSecretUnreadable: the secret of endpoint ${id} is sealed with key "test-2", which is not in the keyring (test-1)`,
      );
      expect(await onlyMessage()).toMatchObject({ status: 'pending', attempts: 1 });
    });

    it('sends nothing when the stored secret was altered or copied from another endpoint', async () => {
      const { id } = await seedEndpoint(h.dataSource, { url: receiver.url() });
      const copied = testKeyring.seal(generateSecret(), '00000000-0000-4000-8000-000000000000');
      await query(
        h.dataSource,
        sql('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1 -- owner-bypass: a secret sealed for another endpoint, a corruption no owner produces'),
        [id, copied],
      );
      await h.publish(sampleEvent('moved-in'));
      await h.engine().runOnce();
      expect(await notSent()).toContain(`the secret of endpoint ${id} sealed with key "test-1" fails authentication`);
    });

    it('sends nothing once the secret is altered, even from an engine that signed with it before', async () => {
      const { id } = await seedEndpoint(h.dataSource, { url: receiver.url() });
      const engine = h.engine();
      await h.publish(sampleEvent('moved-in'));
      await engine.runOnce();
      expect(receiver.requests).toHaveLength(1);
      await query(h.dataSource, sql('DELETE FROM webhook_attempts'));
      receiver.requests.length = 0;
      const copied = testKeyring.seal(generateSecret(), '00000000-0000-4000-8000-000000000000');
      await query(
        h.dataSource,
        sql('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1 -- owner-bypass: a secret sealed for another endpoint, a corruption no owner produces'),
        [id, copied],
      );
      await h.publish(sampleEvent('moved-out'));
      await engine.runOnce();
      expect(await notSent()).toContain(`the secret of endpoint ${id} sealed with key "test-1" fails authentication`);
    });
  });

  it('recovers a message whose worker died mid-delivery: same hook-id, nothing lost', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    await h.publish(sampleEvent('delinquency-status-change'));
    // A worker claims the message and dies before recording anything: only its lease remains.
    const now = h.clock.now();
    const [claimed] = await new MessageStore(h.dataSource).claimDue(now, new Date(now.getTime() + 60 * SECOND), 10, [], 'test-replica');
    const survivor = h.engine();
    expect(await survivor.runOnce()).toBe(0); // still leased to the dead worker
    h.clock.advance(60 * SECOND);
    expect(await survivor.runOnce()).toBe(1);
    expect(receiver.requests.map((r) => r.headers['hook-id'])).toEqual([claimed.id]);
    expect(await onlyMessage()).toMatchObject({ id: claimed.id, status: 'succeeded', attempts: 1 });
  });

  it('shares the queue between replicas without sending a message twice (SKIP LOCKED)', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    for (let i = 0; i < 120; i += 1) await h.publish(sampleEvent('moved-in'));
    const counts = await Promise.all([
      h.engine({ concurrency: 10 }).runOnce(),
      h.engine({ concurrency: 10 }).runOnce(),
      h.engine({ concurrency: 10 }).runOnce(),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
    expect(new Set(receiver.requests.map((r) => r.headers['hook-id'])).size).toBe(120);
    expect(receiver.requests).toHaveLength(120);
  });

  it('retries in the background at the due time, with no poll before it', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    receiver.respond = (_req, res) => {
      res.statusCode = receiver.requests.length === 1 ? 503 : 204;
      res.end();
    };
    const engine = h.engine({ pollMs: 60_000 });
    engine.start();
    try {
      await h.publish(sampleEvent('moved-in'));
      engine.wake();
      await eventually(async () => expect(await attempts()).toHaveLength(1));
      // The engine's timer is real time, the due time the fake clock's: move the clock to it, the timer fires in 5 s.
      h.clock.advance(RETRY_SCHEDULE_MS[0]);
      await eventually(async () => expect((await onlyMessage()).status).toBe('succeeded'), { timeoutMs: 15_000 });
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await engine.stop();
    }
  }, 20_000);

  it('delivers a due message that found no room once a fan-out gives back the room it reserved', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    const engine = h.engine({ pollMs: 60_000, concurrency: 1 });
    engine.start();
    try {
      const reservation = engine.reserve(5);
      expect(reservation.count).toBe(1);
      await h.publish(sampleEvent('moved-in'));
      engine.wake(); // no room: the fan-out holds it
      engine.deliverReserved(reservation, []);
      await eventually(() => expect(receiver.requests).toHaveLength(1));
    } finally {
      await engine.stop();
    }
  });

  it('delivers in the background when woken, without waiting for the poll', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    const engine = h.engine({ pollMs: 60_000 });
    engine.start();
    try {
      await h.publish(sampleEvent('moved-in'));
      engine.wake();
      await eventually(() => expect(receiver.requests).toHaveLength(1));
      await eventually(async () => expect((await onlyMessage()).status).toBe('succeeded'));
    } finally {
      await engine.stop();
    }
  });
});
