import { AddressPolicy, parseSubnetList } from '../src/address-policy';
import { checkTargetUrl, TargetUrlRefused, type HostResolver } from '../src/target-url';

const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'loopback.example.com': ['127.0.0.1'],
  'private.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'rebind.example.com': ['93.184.216.34', '192.168.1.1'],
  'ula.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
};
const resolve: HostResolver = async (host) => DNS[host] ?? [];
const strict = new AddressPolicy();

/** [target, what the refusal must say] */
const HOSTILE: [string, RegExp][] = [
  ['http://hooks.example.com/webhook', /https/],
  ['ftp://hooks.example.com/webhook', /https/],
  ['https://hooks.example.com/webhook?token=1', /query string/],
  ['https://hooks.example.com/webhook?', /query string/],
  ['https://user:pass@hooks.example.com/webhook', /credentials/],
  ['not a url', /absolute URL/],
  ['https://localhost/webhook', /localhost/],
  ['https://LOCALHOST./webhook', /localhost/],
  ['https://api.localhost/webhook', /localhost/],
  ['https://127.0.0.1/webhook', /loopback/],
  ['https://127.8.9.10:8443/webhook', /loopback/],
  ['https://2130706433/webhook', /127\.0\.0\.1, a loopback/],
  ['https://0177.0.0.1/webhook', /127\.0\.0\.1, a loopback/],
  ['https://0x7f.0.0.1/webhook', /127\.0\.0\.1, a loopback/],
  ['https://0x7f000001/webhook', /127\.0\.0\.1, a loopback/],
  ['https://127.1/webhook', /127\.0\.0\.1, a loopback/],
  ['https://0.0.0.0/webhook', /this network/],
  ['https://0/webhook', /this network/],
  ['https://10.0.0.1/webhook', /private/],
  ['https://172.16.5.4/webhook', /private/],
  ['https://172.31.255.255/webhook', /private/],
  ['https://192.168.0.10/webhook', /private/],
  ['https://169.254.169.254/latest/meta-data', /link-local/],
  ['https://100.64.0.1/webhook', /CGNAT/],
  ['https://100.127.255.254/webhook', /CGNAT/],
  ['https://224.0.0.1/webhook', /multicast/],
  ['https://255.255.255.255/webhook', /reserved/],
  ['https://240.0.0.1/webhook', /reserved/],
  ['https://192.0.2.1/webhook', /documentation/],
  ['https://198.18.0.1/webhook', /benchmarking/],
  ['https://[::1]/webhook', /loopback/],
  ['https://[::]/webhook', /unspecified/],
  ['https://[::ffff:127.0.0.1]/webhook', /IPv4-mapped/],
  ['https://[::ffff:7f00:1]/webhook', /IPv4-mapped/],
  ['https://[::ffff:10.0.0.1]/webhook', /IPv4-mapped/],
  ['https://[fe80::1]/webhook', /link-local/],
  ['https://[fd00::1]/webhook', /unique local/],
  ['https://[fc00::1]/webhook', /unique local/],
  ['https://[ff02::1]/webhook', /multicast/],
  ['https://[64:ff9b::7f00:1]/webhook', /NAT64/],
  ['https://[2002:7f00:1::1]/webhook', /6to4/],
  ['https://[::127.0.0.1]/webhook', /non-global/],
  ['https://loopback.example.com/webhook', /resolves to 127\.0\.0\.1, a loopback/],
  ['https://private.example.com/webhook', /resolves to 10\.1\.2\.3/],
  ['https://metadata.example.com/webhook', /link-local/],
  ['https://rebind.example.com/webhook', /resolves to 192\.168\.1\.1/],
  ['https://ula.example.com/webhook', /unique local/],
  ['https://mapped.example.com/webhook', /IPv4-mapped/],
  ['https://nowhere.example.com/webhook', /does not resolve/],
];

describe('target URL rules', () => {
  it.each(HOSTILE)('refuses %s', async (target, reason) => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
    const refusal = checkTargetUrl(target, strict, resolve);
    await expect(refusal).rejects.toBeInstanceOf(TargetUrlRefused);
    await expect(refusal).rejects.toThrow(reason);
  });

  it.each(['https://hooks.example.com/webhook', 'https://hooks.example.com:8443/a/b', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook'])(
    'accepts %s',
    async (target) => {
      await expect(checkTargetUrl(target, strict, resolve)).resolves.toBeInstanceOf(URL);
    },
  );

  it('re-allows only the configured subnets', async () => {
    const local = new AddressPolicy(parseSubnetList('127.0.0.1/32, 10.9.0.0/16'));
    await expect(checkTargetUrl('https://127.0.0.1:9443/hook', local, resolve)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('https://loopback.example.com/hook', local, resolve)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('https://10.9.1.1/hook', local, resolve)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('https://127.0.0.2/hook', local, resolve)).rejects.toThrow(/loopback/);
    await expect(checkTargetUrl('http://127.0.0.1/hook', local, resolve)).rejects.toThrow(/https/);
    await expect(checkTargetUrl('https://localhost/hook', local, resolve)).rejects.toThrow(/localhost/);
  });

  it('names a bad allowed-subnet entry', () => {
    expect(parseSubnetList('')).toEqual([]);
    expect(() => parseSubnetList('127.0.0.1/32,banana')).toThrow(/"banana"/);
    expect(() => parseSubnetList('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
  });
});
