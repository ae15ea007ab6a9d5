import type { HostResolver } from '@storage/webhooks';
import { removeAllEndpoints, seedEndpoint } from './support/endpoints';
import { sampleEvent } from './support/events';
import { createHarness, type Harness } from './support/harness';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';
import { query, sql } from '@storage/persistence';

/** Hostnames as a rebinding attacker would answer them at delivery time. */
const DNS: Record<string, string[]> = {
  'hooks.test': ['127.0.0.1'],
  'rebind.test': ['93.184.216.34', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.0.0.7'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'ula.test': ['fd00::7'],
};
const resolve: HostResolver = async (host) => DNS[host] ?? [];

describe('delivery refuses hostile targets even when they are already stored', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let h: Harness;

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    h = await createHarness(certificate);
  });
  afterAll(async () => {
    await h.close();
    await receiver.stop();
    certificate.cleanup();
  });

  it('sends nothing to loopback, private, link-local, mapped or rebinding targets, and records why', async () => {
    const port = receiver.port;
    const hostile = [
      `https://127.0.0.1:${port}/hook`,
      `https://127.0.0.2:${port}/hook`,
      `https://2130706433:${port}/hook`,
      `https://0177.0.0.1:${port}/hook`,
      `https://0x7f.0.0.1:${port}/hook`,
      `https://127.1:${port}/hook`,
      `https://[::1]:${port}/hook`,
      `https://[::ffff:127.0.0.1]:${port}/hook`,
      `https://[::ffff:7f00:1]:${port}/hook`,
      `https://hooks.test:${port}/hook`,
      `https://rebind.test:${port}/hook`,
      `https://mapped.test:${port}/hook`,
      `https://ula.test:${port}/hook`,
      `https://metadata.test/latest`,
      `https://private.test/hook`,
      'https://0.0.0.0/hook',
      'https://10.1.1.1/hook',
      'https://172.20.0.1/hook',
      'https://192.168.10.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.1.1/hook',
      'https://224.0.0.1/hook',
      'https://255.255.255.255/hook',
      'https://198.18.0.1/hook',
      'https://[fe80::1]/hook',
      'https://[fd12::1]/hook',
      'https://[ff02::1]/hook',
      'https://[::]/hook',
      'https://[64:ff9b::7f00:1]/hook',
      `https://localhost:${port}/hook`,
      `http://127.0.0.1:${port}/hook`,
    ];
    expect(hostile.length).toBeGreaterThanOrEqual(30);
    for (const [index, url] of hostile.entries()) await seedEndpoint(h.dataSource, { url, vendorName: `v${index}` });
    await h.publish(sampleEvent('moved-in'));

    // No allowlist here: the rules of production.
    expect(await h.engine({ allowed: '', resolve }).runOnce()).toBe(hostile.length);
    expect(receiver.requests).toHaveLength(0);
    const attempts = await query(
      h.dataSource,
      sql<{ url: string; error: string | null; status_code: number | null }>(
        `SELECT e.url, a.error, a.status_code FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id`,
      ),
    );
    expect(attempts).toHaveLength(hostile.length);
    for (const attempt of attempts) {
      expect({ url: attempt.url, status: attempt.status_code }).toEqual({ url: attempt.url, status: null });
      expect({ url: attempt.url, error: attempt.error }).toEqual({
        url: attempt.url,
        error: expect.stringMatching(
          /loopback|private|link-local|CGNAT|multicast|reserved|this network|benchmarking|unique local|unspecified|IPv4-mapped|NAT64|localhost|https/,
        ),
      });
    }
  });

  it('delivers to the same receiver once its subnet is allowed (the control)', async () => {
    await removeAllEndpoints(h.dataSource);
    await seedEndpoint(h.dataSource, { url: `https://hooks.test:${receiver.port}/hook` });
    await h.publish(sampleEvent('moved-out'));
    await h.engine({ allowed: '127.0.0.1/32', resolve }).runOnce();
    expect(receiver.requests).toHaveLength(1);
  });
});
