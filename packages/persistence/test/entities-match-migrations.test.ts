import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
// The compiled package: migrations and every workspace's entities are found as .js in their dist/.
import { freePort, schemaDifference, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';

// What `npm run migration:generate` compares: a change to an entity without its migration (or the reverse) fails here.
describe('the entities and the migrations', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-entities-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('describe the same schema: the migration generator finds nothing to do', async () => {
    const difference = await schemaDifference(server.url());
    expect(difference.up.map((statement) => statement.query)).toEqual([]);
  }, 120_000);
});
