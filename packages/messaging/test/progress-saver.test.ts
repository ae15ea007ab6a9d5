import { query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { Pool, type QueryConfig } from 'pg';
import { ProgressSaver } from '../src/embedded/progress-saver';

const POSITION = sql<{ position: string }, [string]>('SELECT position::text FROM consumer_offsets WHERE consumer_group = $1');

describe('ProgressSaver (embedded consumer offsets)', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const position = async (group: string) => (await query(pool, POSITION, [group]))[0]?.position;

  it('saves the first progress at once, then at most once per interval the furthest finished position, and all of it on flush', async () => {
    const saves = jest.spyOn(pool, 'query');
    let through = 0n;
    const errors: unknown[] = [];
    const saver = new ProgressSaver(
      pool,
      'throttled',
      0n,
      () => through,
      (error) => errors.push(error),
    );

    saver.offer(); // nothing finished yet: nothing to save
    through = 5n;
    saver.offer();
    await eventually(async () => expect(await position('throttled')).toBe('5'));

    // Records keep finishing within the interval: one more save, of the furthest position, once the interval is up.
    through = 6n;
    saver.offer();
    through = 7n;
    saver.offer();
    await eventually(async () => expect(await position('throttled')).toBe('7'));
    // pg's typings give the spy the text overload's parameters; query() passes a config.
    const offsetWrites = () =>
      saves.mock.calls.filter(([statement]) => (statement as unknown as QueryConfig).text.includes('INSERT INTO consumer_offsets')).length;
    expect(offsetWrites()).toBe(2);

    // Leadership ends: what is finished is saved now, not at the end of the interval.
    through = 9n;
    saver.offer();
    await saver.flush();
    expect(await position('throttled')).toBe('9');
    expect(offsetWrites()).toBe(3);
    expect(errors).toEqual([]);
  });
});
