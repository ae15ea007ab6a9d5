import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { generateSecret, SecretKeyring } from '@storage/webhooks';
import { sealEndpointSecrets } from '../src/delivery/endpoint-secrets';
import { removeAllEndpoints, seedEndpoint } from './support/endpoints';
import { TEST_SECRET_KEY, testKeyring } from './support/secret-keys';

const URL = 'https://hooks.test/';

describe('sealing stored endpoint secrets at startup', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'endpoint-secrets-test' }).initialize();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => removeAllEndpoints(db));

  const stored = async (id: string) =>
    (await query(db, sql<{ secret: string; previous_secret: string | null }>('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1'), [id]))[0];
  const seedMany = (count: number, sealWith: SecretKeyring | null) =>
    Promise.all(Array.from({ length: count }, (_, index) => seedEndpoint(db, { url: `${URL}${index}`, sealWith })));

  it('seals bare secrets of rows written before sealing, the previous secret too, and is idempotent', async () => {
    const [legacy, rotated] = await seedMany(2, null);
    const previous = generateSecret();
    await query(
      db,
      sql(`UPDATE webhook_endpoints SET previous_secret = $2, previous_secret_expires_at = now() + interval '1 day' WHERE id = $1
       -- owner-bypass: a bare previous secret, as stored before sealing, a state no owner produces now`),
      [rotated.id, previous],
    );
    const alreadySealed = await seedEndpoint(db, { url: `${URL}sealed` });
    const untouched = await stored(alreadySealed.id);

    expect(await sealEndpointSecrets(db, testKeyring)).toEqual({ sealed: 2, unreadable: [] });

    for (const { id, secret } of [legacy, rotated]) {
      const row = await stored(id);
      expect(row.secret).toMatch(/^v1:test-1:/);
      expect(row.secret).not.toContain(secret.slice('whsec_'.length));
      expect(testKeyring.open(row.secret, id)).toBe(secret);
    }
    const rotatedRow = await stored(rotated.id);
    expect(rotatedRow.previous_secret).toMatch(/^v1:test-1:/);
    expect(testKeyring.open(rotatedRow.previous_secret!, rotated.id)).toBe(previous);
    expect(await stored(alreadySealed.id)).toEqual(untouched);
    expect(await sealEndpointSecrets(db, testKeyring)).toEqual({ sealed: 0, unreadable: [] });
  });

  it('moves secrets sealed with an older key to the first key, so the old key can be retired', async () => {
    const seeded = await seedMany(3, testKeyring);
    const newKey = { id: 'test-2', key: randomBytes(32) };
    expect((await sealEndpointSecrets(db, new SecretKeyring([newKey, TEST_SECRET_KEY]))).sealed).toBe(3);
    const newOnly = new SecretKeyring([newKey]);
    for (const { id, secret } of seeded) expect(newOnly.open((await stored(id)).secret, id)).toBe(secret);
  });

  it('seals each row once when replicas start together, across pages', async () => {
    const seeded = await seedMany(1_100, null);
    const reports = await Promise.all([sealEndpointSecrets(db, testKeyring), sealEndpointSecrets(db, testKeyring), sealEndpointSecrets(db, testKeyring)]);
    expect(reports.reduce((sum, report) => sum + report.sealed, 0)).toBe(1_100);
    const rows = await query(db, sql<{ id: string; secret: string }>('SELECT id, secret FROM webhook_endpoints'));
    const secrets = new Map(seeded.map(({ id, secret }) => [id, secret]));
    for (const row of rows) expect(testKeyring.open(row.secret, row.id)).toBe(secrets.get(row.id));
  });

  it('leaves a secret it cannot open as it is and reports it by key id', async () => {
    const lost = await seedEndpoint(db, { url: `${URL}lost`, sealWith: new SecretKeyring([{ id: 'retired', key: randomBytes(32) }]) });
    const legacy = await seedEndpoint(db, { url: `${URL}legacy`, sealWith: null });
    const before = await stored(lost.id);
    const report = await sealEndpointSecrets(db, testKeyring);
    expect(report.sealed).toBe(1);
    expect(report.unreadable.map((error) => [error.keyId, error.message])).toEqual([
      ['retired', `the secret of endpoint ${lost.id} is sealed with key "retired", which is not in the keyring (test-1)`],
    ]);
    expect(await stored(lost.id)).toEqual(before);
    expect(testKeyring.open((await stored(legacy.id)).secret, legacy.id)).toBe(legacy.secret);
  });
});
