import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../src';

export interface PrivateServer {
  server: () => RunningEmbeddedPostgres;
  /** A client connected to the server's `storage` database. */
  admin: () => Client;
}

/**
 * A throwaway embedded server of the suite's own (its tests stop backends or break connections), with an admin client:
 * started before the suite's tests, stopped and removed after them.
 */
export function usePrivateServer(prefix: string): PrivateServer {
  let dataDir: string;
  let server: RunningEmbeddedPostgres | undefined;
  let admin: Client | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), prefix));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    admin = new Client({ connectionString: server.url() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { server: () => server!, admin: () => admin! };
}
