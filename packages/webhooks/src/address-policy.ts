import { formatIp, inCidr, mappedIpv4, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address';

const range = (text: string, reason: string): { cidr: Cidr; reason: string } => {
  const cidr = parseCidr(text);
  if (!cidr) throw new Error(`bad built-in range ${text}`);
  return { cidr, reason };
};

/** Every IPv4 range that is not globally reachable (IANA special-purpose registry). */
const IPV4_REFUSED = [
  range('0.0.0.0/8', '"this network" address'),
  range('10.0.0.0/8', 'private (RFC 1918) address'),
  range('100.64.0.0/10', 'shared (CGNAT) address'),
  range('127.0.0.0/8', 'loopback address'),
  range('169.254.0.0/16', 'link-local address'),
  range('172.16.0.0/12', 'private (RFC 1918) address'),
  range('192.0.0.0/24', 'IETF protocol address'),
  range('192.0.2.0/24', 'documentation address'),
  range('192.88.99.0/24', '6to4 relay address'),
  range('192.168.0.0/16', 'private (RFC 1918) address'),
  range('198.18.0.0/15', 'benchmarking address'),
  range('198.51.100.0/24', 'documentation address'),
  range('203.0.113.0/24', 'documentation address'),
  range('224.0.0.0/4', 'multicast address'),
  range('240.0.0.0/4', 'reserved address'),
];

/** IPv6: only global unicast (2000::/3) minus its special-purpose blocks, some of which tunnel to IPv4. */
const IPV6_GLOBAL = range('2000::/3', '');
const IPV6_REFUSED = [
  range('::/128', 'unspecified address'),
  range('::1/128', 'loopback address'),
  range('64:ff9b::/96', 'NAT64 address'),
  range('64:ff9b:1::/48', 'NAT64 address'),
  range('100::/64', 'discard-only address'),
  range('2001::/23', 'IETF protocol address (Teredo and others)'),
  range('2001:db8::/32', 'documentation address'),
  range('2002::/16', '6to4 address'),
  range('fc00::/7', 'unique local (ULA) address'),
  range('fe80::/10', 'link-local address'),
  range('fec0::/10', 'site-local address'),
  range('ff00::/8', 'multicast address'),
];

/** Parses `WEBHOOK_ALLOWED_SUBNETS` (comma-separated CIDRs); throws naming the first bad entry. */
export function parseSubnetList(text: string | undefined): Cidr[] {
  if (!text?.trim()) return [];
  return text.split(',').map((entry) => {
    const cidr = parseCidr(entry);
    if (!cidr) throw new RangeError(`"${entry.trim()}" is not a CIDR such as 127.0.0.1/32`);
    return cidr;
  });
}

/**
 * Decides whether a webhook may be sent to an address: only globally reachable unicast addresses,
 * unless an explicitly configured subnet (local development and tests only) re-allows it.
 */
export class AddressPolicy {
  constructor(private readonly allowedSubnets: readonly Cidr[] = []) {}

  /** Why the address is refused, or null when it may be used. */
  refusal(address: string | IpAddress): string | null {
    const ip = typeof address === 'string' ? parseIp(address) : address;
    if (!ip) return 'not an IP address';
    const mapped = mappedIpv4(ip);
    if (this.allowedSubnets.some((cidr) => inCidr(ip, cidr) || (mapped !== null && inCidr(mapped, cidr)))) return null;
    if (mapped) return `IPv4-mapped IPv6 address (${formatIp(mapped)})`;
    if (ip.family === 4) return IPV4_REFUSED.find(({ cidr }) => inCidr(ip, cidr))?.reason ?? null;
    if (!inCidr(ip, IPV6_GLOBAL.cidr)) return IPV6_REFUSED.find(({ cidr }) => inCidr(ip, cidr))?.reason ?? 'non-global IPv6 address';
    return IPV6_REFUSED.find(({ cidr }) => inCidr(ip, cidr))?.reason ?? null;
  }
}
