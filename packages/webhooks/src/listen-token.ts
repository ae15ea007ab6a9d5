import { openGrant, sealGrant } from './signed-grant';

/** How long a `webhooks listen` grant opens and reopens its session's stream. */
export const LISTEN_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1_000;

/** What the api granted a listener: a session in a portfolio, for event types, bound to the key that asked. */
export interface ListenGrant {
  portfolio: string;
  apiKeyUuid: string;
  eventTypes: string[];
  expiresAt: Date;
}

export function issueListenToken(grant: Omit<ListenGrant, 'expiresAt'>, now: Date, secret: string): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + LISTEN_TOKEN_LIFETIME_MS);
  return { token: sealGrant('listen', { p: grant.portfolio, k: grant.apiKeyUuid, t: grant.eventTypes, e: expiresAt.getTime() }, secret), expiresAt };
}

/** The grant, or null when the token is forged, malformed or expired. */
export function checkListenToken(token: string, now: Date, secret: string): ListenGrant | null {
  const claims = openGrant('listen', token, secret);
  if (!isClaims(claims) || claims.e <= now.getTime() || claims.e > now.getTime() + 2 * LISTEN_TOKEN_LIFETIME_MS) return null;
  return { portfolio: claims.p, apiKeyUuid: claims.k, eventTypes: claims.t, expiresAt: new Date(claims.e) };
}

function isClaims(value: unknown): value is { p: string; k: string; t: string[]; e: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { p, k, t, e } = value as Record<string, unknown>;
  return (
    typeof p === 'string' &&
    typeof k === 'string' &&
    Array.isArray(t) &&
    t.length > 0 &&
    t.every((type) => typeof type === 'string') &&
    typeof e === 'number' &&
    Number.isSafeInteger(e)
  );
}
