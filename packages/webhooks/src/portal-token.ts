import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an operation 20 link stays valid (spec 4.15). */
export const PORTAL_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1_000;

export interface PortalGrant {
  portfolio: string;
  expiresAt: Date;
}

export type PortalTokenCheck = { ok: true; grant: PortalGrant } | { ok: false; reason: 'expired' | 'invalid' };

const mac = (payload: string, secret: string) => createHmac('sha256', secret).update(`portal.${payload}`).digest('base64url');

/** `<base64url JSON {p, e}>.<base64url HMAC-SHA256>`: no server state, so any dispatcher replica can check it. */
export function issuePortalToken(portfolio: string, now: Date, secret: string): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS);
  const payload = Buffer.from(JSON.stringify({ p: portfolio, e: expiresAt.getTime() })).toString('base64url');
  return { token: `${payload}.${mac(payload, secret)}`, expiresAt };
}

export function checkPortalToken(token: string, now: Date, secret: string): PortalTokenCheck {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!isClaims(claims)) return { ok: false, reason: 'invalid' };
  if (claims.e <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, grant: { portfolio: claims.p, expiresAt: new Date(claims.e) } };
}

function isClaims(value: unknown): value is { p: string; e: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { p, e } = value as Record<string, unknown>;
  return typeof p === 'string' && p.length > 0 && typeof e === 'number' && Number.isSafeInteger(e);
}
