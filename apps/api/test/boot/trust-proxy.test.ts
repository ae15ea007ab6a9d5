import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, eventually, freePort, type TestDatabase } from '@storage/testing';

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

  async function startApi(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: database.url, API_PORT: String(port), DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`api exited: ${output}`);
        expect((await fetch(`${base}/health/ready`)).status).toBe(200);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    return { base, child };
  }

  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
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
    const { base, child } = await startApi({});
    try {
      const statuses = await spoofedLeasePages(base, 40);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    } finally {
      await stop(child);
    }
  }, 60_000);

  it('with TRUST_PROXY=1 (one ingress in front), the address the proxy forwards is the client', async () => {
    const { base, child } = await startApi({ TRUST_PROXY: '1' });
    try {
      const statuses = await spoofedLeasePages(base, 40);
      expect(statuses.filter((status) => status === 429)).toEqual([]);
    } finally {
      await stop(child);
    }
  }, 60_000);
});
