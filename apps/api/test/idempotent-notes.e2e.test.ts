import { query, sql } from '@storage/persistence';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { expectProblem, id, startTestApi, UUID, type Reply, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const notesOf = (lead: string) => `/api/demo/portfolios/v1/notes/lead/${lead}`;
const NOTES_WITH = sql<{ notes: number }, [text: string]>(`SELECT count(*)::int AS notes FROM notes WHERE note_text = $1`);

const send = (lead: string, noteText: string, key: string): Promise<Reply> =>
  api.call('POST', notesOf(lead), { body: { noteText }, headers: { 'Idempotency-Key': key } });

async function notesWith(text: string): Promise<number> {
  const [row] = await query(api.db, NOTES_WITH, [text]);
  return row.notes;
}

/*
 * A call centre's agent saves a note on a lead; the answer does not come back (a time-out, a dropped connection), and
 * the client sends it again. With the same `Idempotency-Key`, the lead has the note once, whatever the interleaving.
 */
describe('operation 12: a lead note sent again with its Idempotency-Key', () => {
  it('is created once, and the retry answers what the first did', async () => {
    const first = await send(id('lead:1'), 'Called back, wants a 10x10 in March.', 'agent-17:0001');
    const retry = await send(id('lead:1'), 'Called back, wants a 10x10 in March.', 'agent-17:0001');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ noteUuid: expect.stringMatching(UUID) });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await notesWith('Called back, wants a 10x10 in March.')).toBe(1);
  });

  it('is created once when copies arrive together, forced to meet at the insert', async () => {
    // Inserts of notes wait while the table is held, so both copies are past any lookup when the first writes.
    const holder = api.db.createQueryRunner();
    await holder.connect();
    let replies: Reply[];
    try {
      await holder.startTransaction();
      await query(holder.manager, sql('LOCK TABLE notes IN SHARE MODE'));
      const sending = Promise.all(Array.from({ length: 2 }, () => send(id('lead:1'), 'Prefers SMS.', 'agent-17:0002')));
      await eventually(async () => expect(await sessionsWaitingForLocks(api.db)).toBe(2));
      await holder.commitTransaction();
      replies = await sending;
    } finally {
      await holder.release();
    }
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    expect(new Set(replies.map((reply) => (reply.body as { noteUuid: string }).noteUuid)).size).toBe(1);
    expect(replies.filter((reply) => reply.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await notesWith('Prefers SMS.')).toBe(1);
  });

  it('refuses the key for another note (422), another lead included; a new key is a new note', async () => {
    expect((await send(id('lead:1'), 'Gate code resent.', 'agent-17:0003')).status).toBe(200);
    const otherText = await send(id('lead:1'), 'Gate code sent again.', 'agent-17:0003');
    expectProblem(otherText, 422);
    expect(otherText.body.detail).toContain('Idempotency-Key');
    expectProblem(await send(id('lead:2'), 'Gate code resent.', 'agent-17:0003'), 422);
    expect((await send(id('lead:1'), 'Gate code resent.', 'agent-17:0004')).status).toBe(200);
    expect(await notesWith('Gate code resent.')).toBe(2);
    expect(await notesWith('Gate code sent again.')).toBe(0);
  });

  it('answers 404 for an unknown lead and 400 for a malformed key, creating nothing', async () => {
    expectProblem(await send(id('lead:none'), 'Nobody.', 'agent-17:0005'), 404);
    expectProblem(await send(id('lead:1'), 'Bad key.', 'has space'), 400, ['Idempotency-Key']);
    expect(await notesWith('Nobody.')).toBe(0);
    expect(await notesWith('Bad key.')).toBe(0);
  });
});
