import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';
import { freePort, bind, createDataSource, query, sql, startEmbeddedPostgres, transactionInOneRoundTrip, type RunningEmbeddedPostgres } from '../src';

interface Note {
  id: number;
  body: string | null;
  tags: string[] | null;
  at: Date | null;
}

const INSERT_NOTE = sql<Note, [number, string | null, string[] | null, Date | null]>(
  'INSERT INTO notes (id, body, tags, at) VALUES ($1::int, $2::text, $3::text[], $4::timestamptz) RETURNING *',
  { prepared: 'test_insert_note' },
);
const NOTE = sql<Note, [number]>('SELECT * FROM notes WHERE id = $1::int', { prepared: 'test_note' });
const RENAME = sql<{ id: number; body: string }, [string, number]>('UPDATE notes SET body = $1 WHERE id = $2 RETURNING id, body');
const COUNT = sql<{ notes: number }>('SELECT count(*)::int AS notes FROM notes');

describe('query and transactionInOneRoundTrip', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-query-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    dataSource = await createDataSource({ url: server.url(), applicationName: 'query-test' }).initialize();
    await query(dataSource, sql('CREATE TABLE notes (id int PRIMARY KEY, body text, tags text[], at timestamptz)'));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => query(dataSource, sql('TRUNCATE notes')));

  it('binds values as they are, quotes and backslashes included, and answers typed rows', async () => {
    const awkward = `it's a \\ "quoted" '); DROP TABLE notes; --`;
    const at = new Date('2026-11-24T03:00:00.123Z');
    const [inserted] = await query(dataSource, INSERT_NOTE, [1, awkward, ['a,b', `c'd`, '\\', '{}'], at]);
    expect(inserted).toEqual({ id: 1, body: awkward, tags: ['a,b', `c'd`, '\\', '{}'], at });
    expect(await query(dataSource, NOTE, [1])).toEqual([inserted]);
  });

  it("answers an UPDATE's RETURNING rows, on the DataSource and in a transaction", async () => {
    await query(dataSource, INSERT_NOTE, [1, 'one', null, null]);
    expect(await query(dataSource, RENAME, ['first', 1])).toEqual([{ id: 1, body: 'first' }]);
    const renamed = await dataSource.transaction((manager) => query(manager, RENAME, ['again', 1]));
    expect(renamed).toEqual([{ id: 1, body: 'again' }]);
  });

  it("runs on the transaction's connection: its writes roll back with it", async () => {
    const failure = new Error('roll back');
    await expect(
      dataSource.transaction(async (manager) => {
        await query(manager, INSERT_NOTE, [1, 'inside', null, null]);
        expect(await query(manager, COUNT)).toEqual([{ notes: 1 }]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await query(dataSource, COUNT)).toEqual([{ notes: 0 }]);
  });

  it('prepares a named statement once per connection, under a name that changes with its text', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await query(runner, NOTE, [1]);
      await query(runner, NOTE, [2]);
      const prepared = await query(runner, sql<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'test_note%'"));
      expect(prepared).toEqual([{ name: NOTE.name }]);
    } finally {
      await runner.release();
    }
    expect(NOTE.name).toMatch(/^test_note_[0-9a-f]{10}$/);
    expect(sql('SELECT 2', { prepared: 'test_note' }).name).not.toBe(sql('SELECT 1', { prepared: 'test_note' }).name);
  });

  it('runs on a pg pool too', async () => {
    const pool = new Pool({ connectionString: server.url() });
    try {
      expect(await query(pool, COUNT)).toEqual([{ notes: 0 }]);
    } finally {
      await pool.end();
    }
  });

  it("fails as TypeORM's query does, with pg's error as driverError", async () => {
    await query(dataSource, INSERT_NOTE, [1, 'one', null, null]);
    const error: unknown = await query(dataSource, INSERT_NOTE, [1, 'again', null, null]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23505');
  });

  describe('transactionInOneRoundTrip', () => {
    it("commits the transaction and answers each statement's rows, values as query binds them", async () => {
      const runner = dataSource.createQueryRunner();
      try {
        const at = new Date('2026-11-24T03:00:00Z');
        const notes: [number, string | null, string[] | null, Date | null][] = [
          [1, `it's \\ quoted $v$`, ['x', null as unknown as string, `y'z`], at],
          [2, null, null, null],
        ];
        const answers = [];
        for (const values of notes) answers.push(await transactionInOneRoundTrip(runner, [bind(INSERT_NOTE, values), bind(NOTE, [values[0]])]));
        const first = { id: 1, body: `it's \\ quoted $v$`, tags: ['x', null, `y'z`], at };
        const second = { id: 2, body: null, tags: null, at: null };
        expect(answers).toEqual([
          [[first], [first]],
          [[second], [second]],
        ]);
        // query shares the statements prepared for the round trip, and the round trip query's.
        expect(await query(runner, NOTE, [2])).toEqual([{ id: 2, body: null, tags: null, at: null }]);
      } finally {
        await runner.release();
      }
    });

    it('rolls the whole transaction back when a statement fails, and leaves the connection usable', async () => {
      const runner = dataSource.createQueryRunner();
      try {
        await query(dataSource, INSERT_NOTE, [1, 'kept', null, null]);
        const error: unknown = await transactionInOneRoundTrip(runner, [
          bind(INSERT_NOTE, [2, 'rolled back', null, null]),
          bind(INSERT_NOTE, [1, 'duplicate', null, null]),
          bind(NOTE, [1]),
        ]).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(QueryFailedError);
        expect((error as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23505');
        expect(await query(runner, sql<{ id: number }>('SELECT id FROM notes ORDER BY id'))).toEqual([{ id: 1 }]);
        expect(await transactionInOneRoundTrip(runner, [bind(NOTE, [1])])).toEqual([[{ id: 1, body: 'kept', tags: null, at: null }]]);
      } finally {
        await runner.release();
      }
    });

    it('parses an unnamed statement in the round trip, planned for the values it is sent with', async () => {
      const runner = dataSource.createQueryRunner();
      try {
        await query(dataSource, INSERT_NOTE, [1, 'one', null, null]);
        expect(await transactionInOneRoundTrip(runner, [bind(RENAME, ['first', 1]), bind(COUNT, [])])).toEqual([[{ id: 1, body: 'first' }], [{ notes: 1 }]]);
        expect(await query(runner, NOTE, [1])).toEqual([{ id: 1, body: 'first', tags: null, at: null }]);
      } finally {
        await runner.release();
      }
    });
  });
});
