import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { query, sql } from '@storage/persistence';
import { expectProblem, id, startTestApi, type Reply, type TestApi } from './support/test-api';

let api: TestApi;
let base: string;
beforeAll(async () => {
  api = await startTestApi();
  base = await api.listen();
});
afterAll(async () => api.close());

const NOTE = `/api/demo/portfolios/v1/notes/lead/${id('lead:1')}`;

/** A note posted over HTTP as these bytes, in this Content-Encoding. */
async function postNote(payload: Buffer, encoding: string): Promise<Reply> {
  const response = await fetch(`${base}${NOTE}`, {
    method: 'POST',
    headers: { 'x-api-key': api.keys.write, 'content-type': 'application/json', 'content-encoding': encoding },
    body: payload,
  });
  const text = await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers), body: JSON.parse(text), text };
}

describe('a request body in a Content-Encoding', () => {
  it('is decoded when it is gzip, deflate or br', async () => {
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const reply = await postNote(encode(Buffer.from(JSON.stringify({ noteText: `sent as ${encoding}` }))), encoding);
      expect([encoding, reply.status]).toEqual([encoding, 200]);
      const [stored] = await query(api.db, sql<{ noteText: string }, [string]>('SELECT note_text AS "noteText" FROM notes WHERE uuid = $1'), [
        reply.body.noteUuid,
      ]);
      expect(stored).toEqual({ noteText: `sent as ${encoding}` });
    }
  });

  it('is never read as plain JSON when it says gzip: 400 problem+json', async () => {
    const reply = await postNote(Buffer.from(JSON.stringify({ noteText: 'plain, said gzip' })), 'gzip');
    expect(expectProblem(reply, 400)).toMatchObject({ detail: expect.stringContaining('not valid gzip') });
  });

  it('is 413 problem+json when it decodes past the body limit (a gzip bomb), 415 in a coding the api does not take', async () => {
    const bomb = gzipSync(Buffer.from(`{"noteText":"${' '.repeat(50 * 1024 * 1024)}"}`));
    expectProblem(await postNote(bomb, 'gzip'), 413);
    const unknown = await postNote(Buffer.from('{"noteText":"x"}'), 'compress');
    expectProblem(unknown, 415);
    expect(unknown.headers['accept-encoding']).toBe('gzip, deflate, br');
  });
});
