import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startServiceProcess, type ServiceProcess, type TestDatabase } from '@storage/testing';

const MAIN = path.resolve(__dirname, '../../dist/main.js');

/**
 * The lease pages are limited per client address (30 at once by default). The api as it boots in production
 * (`runService`) used to believe any X-Forwarded-For, so a client reached directly named itself a new address per
 * request and was never limited. Now it believes one only from the proxies TRUST_PROXY names.
 */
describe('client addresses behind, and without, a proxy (TRUST_PROXY)', () => {
  let database: TestDatabase;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-proxy-'));
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startApi(env: Record<string, string>): Promise<{ base: string; api: ServiceProcess }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = await startServiceProcess(
      MAIN,
      { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: database.url, API_PORT: String(port), DATA_DIR: dataDir, ...env },
      `${base}/health/ready`,
    );
    return { base, api };
  }

  /** Lease page requests, each for another link and naming another forwarded address; their statuses. */
  async function spoofedLeasePages(base: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const reply = await fetch(`${base}/leases/sign/${randomBytes(32).toString('base64url')}`, { headers: { 'x-forwarded-for': `203.0.113.${i % 250}` } });
      statuses.push(reply.status);
    }
    return statuses;
  }

  it('without TRUST_PROXY, a forwarded address is not believed: the peer is limited whatever it claims', async () => {
    const { base, api } = await startApi({});
    try {
      const statuses = await spoofedLeasePages(base, 40);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    } finally {
      await api.signal('SIGKILL');
    }
  }, 60_000);

  it('with TRUST_PROXY=1 (one ingress in front), the address the proxy forwards is the client', async () => {
    const { base, api } = await startApi({ TRUST_PROXY: '1' });
    try {
      const statuses = await spoofedLeasePages(base, 40);
      expect(statuses.filter((status) => status === 429)).toEqual([]);
    } finally {
      await api.signal('SIGKILL');
    }
  }, 60_000);
});
