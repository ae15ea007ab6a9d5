import { lookup } from 'node:dns/promises';
import type { AddressPolicy } from './address-policy';
import { parseIp } from './ip-address';

/** A target URL the rules refuse; `message` says which rule, for the integrator to read. */
export class TargetUrlRefused extends Error {
  override readonly name = 'TargetUrlRefused';
}

/** Every address a hostname resolves to; injectable so tests need no DNS. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const MAX_URL_LENGTH = 2_048;

/** The URL's host without IPv6 brackets or a trailing dot, lower case. */
export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * The checks that need no DNS: HTTPS, no query string, no credentials, no localhost, and a literal IP
 * host (any spelling: the URL parser turns decimal, octal and hex IPv4 forms into dotted quads) allowed.
 */
export function checkTargetUrlSyntax(raw: string, policy: AddressPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw new TargetUrlRefused(`targetUrl must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetUrlRefused('targetUrl must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw new TargetUrlRefused('targetUrl must use https');
  if (raw.includes('?')) throw new TargetUrlRefused('targetUrl must not contain a query string');
  if (raw.includes('#')) throw new TargetUrlRefused('targetUrl must not contain a fragment');
  if (url.username || url.password) throw new TargetUrlRefused('targetUrl must not contain credentials');
  const host = bareHost(url);
  if (host === 'localhost' || host.endsWith('.localhost')) throw new TargetUrlRefused('targetUrl must not point to localhost');
  const literal = parseIp(host);
  if (literal) {
    const refusal = policy.refusal(literal);
    if (refusal) throw new TargetUrlRefused(`targetUrl points to ${host}, a ${refusal}`);
  }
  return url;
}

/** Every check, including the addresses the hostname resolves to now: one refused address refuses the URL. */
export async function checkTargetUrl(raw: string, policy: AddressPolicy, resolve: HostResolver = systemResolver): Promise<URL> {
  const url = checkTargetUrlSyntax(raw, policy);
  const host = bareHost(url);
  if (parseIp(host)) return url;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new TargetUrlRefused(`targetUrl host ${host} does not resolve`);
  for (const address of addresses) {
    const refusal = policy.refusal(address);
    if (refusal) throw new TargetUrlRefused(`targetUrl host ${host} resolves to ${address}, a ${refusal}`);
  }
  return url;
}
