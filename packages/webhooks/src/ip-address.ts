import { isIP } from 'node:net';

/** An IP address as a number, so ranges are a shift and a compare. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

export interface Cidr extends IpAddress {
  prefix: number;
  text: string;
}

const BITS = { 4: 32n, 6: 128n } as const;

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);
}

function parseIpv6(text: string): bigint | null {
  let body = text.replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const tailStart = body.lastIndexOf(':') + 1;
  if (body.slice(tailStart).includes('.')) {
    const v4 = parseIpv4(body.slice(tailStart));
    if (v4 === null) return null;
    body = `${body.slice(0, tailStart)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** Parses a literal IPv4 or IPv6 address (brackets and zone ids allowed), or returns null. */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) {
    const value = parseIpv4(bare);
    return value === null ? null : { family: 4, value };
  }
  if (family === 6) {
    const value = parseIpv6(bare);
    return value === null ? null : { family: 6, value };
  }
  return null;
}

export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, ...rest] = text.trim().split('/');
  if (address === undefined || rest.length > 0) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const max = Number(BITS[ip.family]);
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { ...ip, prefix, text: text.trim() };
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  const shift = BITS[ip.family] - BigInt(cidr.prefix);
  return ip.value >> shift === cidr.value >> shift;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), if it is one. */
export function mappedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6 || ip.value >> 32n !== 0xffffn) return null;
  return { family: 4, value: ip.value & 0xffffffffn };
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((ip.value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}
