import { openGrant, sealGrant } from './signed-grant';

/** How long an operation 20 link stays valid (spec 4.15). */
export const PORTAL_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1_000;

/** Clocks of the api and the dispatcher may differ a little: an expiry this much beyond the lifetime still passes. */
const CLOCK_SKEW_MS = 60_000;

export interface PortalGrant {
  portfolio: string;
  expiresAt: Date;
  /** The API key the link was issued to: the portal stops honouring it as soon as the key is revoked. */
  apiKeyUuid: string;
}

export type PortalTokenCheck = { ok: true; grant: PortalGrant } | { ok: false; reason: 'expired' | 'invalid' };

/** A grant (`sealGrant`) of `{p, e, k}`: no server state, so any dispatcher replica can check it. */
export function issuePortalToken(portfolio: string, now: Date, secret: string, apiKeyUuid: string): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS);
  return { token: sealGrant('portal', { p: portfolio, e: expiresAt.getTime(), k: apiKeyUuid }, secret), expiresAt };
}

export function checkPortalToken(token: string, now: Date, secret: string): PortalTokenCheck {
  const claims = openGrant('portal', token, secret);
  if (!isClaims(claims)) return { ok: false, reason: 'invalid' };
  if (claims.e <= now.getTime()) return { ok: false, reason: 'expired' };
  // Only a holder of the secret signs, but a leaked or default secret must not mint links that never end.
  if (claims.e > now.getTime() + PORTAL_TOKEN_LIFETIME_MS + CLOCK_SKEW_MS) return { ok: false, reason: 'invalid' };
  return { ok: true, grant: { portfolio: claims.p, expiresAt: new Date(claims.e), apiKeyUuid: claims.k } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isClaims(value: unknown): value is { p: string; e: number; k: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { p, e, k } = value as Record<string, unknown>;
  return typeof p === 'string' && p.length > 0 && typeof e === 'number' && Number.isSafeInteger(e) && typeof k === 'string' && UUID.test(k);
}
