import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * A grant the api signs and a dispatcher replica checks with no server state: `<base64url JSON>.<base64url HMAC-SHA256>`,
 * the MAC taken over `<purpose>.<payload>` so that a grant of one purpose is never read as another's.
 */

const mac = (purpose: string, payload: string, secret: string) => createHmac('sha256', secret).update(`${purpose}.${payload}`).digest('base64url');

export function sealGrant(purpose: string, claims: object, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(purpose, payload, secret)}`;
}

/** The claims of a grant signed for `purpose` with `secret`, unchecked beyond the signature; undefined when forged. */
export function openGrant(purpose: string, token: string, secret: string): unknown {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(purpose, payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
