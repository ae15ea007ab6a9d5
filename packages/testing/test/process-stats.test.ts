import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { query, sql } from '@storage/persistence';
import { backendNames, createTestDatabase, postgresCpuByKind, postgresProcesses, type TestDatabase } from '../src';

/** The parent of a process: a backend's is its postmaster. */
const parentOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

describe("PostgreSQL's CPU by the application each backend serves", () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url, application_name: 'the-named-app' });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it('names a client backend by its application_name and counts its CPU under that name', async () => {
    const [{ pid }] = await query(client, sql<{ pid: number }>('SELECT pg_backend_pid() AS pid'));
    const postmaster = parentOf(pid);
    const names = await backendNames(client);
    expect(names.get(pid)).toBe('the-named-app');

    const before = postgresProcesses(postmaster, names);
    expect(before.children.get(pid)?.kind).toBe('backends of the-named-app');
    // Enough work for the kernel's clock ticks to see it.
    await query(client, sql('SELECT count(*) FROM generate_series(1, 3000000) g WHERE md5(g::text) > $1'), ['8']);
    const used = postgresCpuByKind(before, postgresProcesses(postmaster, names));
    expect(used.get('backends of the-named-app')).toBeGreaterThan(0);
    // Unnamed, the same backend is one of the `backends`.
    expect(postgresProcesses(postmaster).children.get(pid)?.kind).toBe('backends');
  });
});
