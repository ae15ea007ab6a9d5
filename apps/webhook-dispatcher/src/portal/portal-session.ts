import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkPortalToken, type PortalGrant } from '@storage/webhooks';

export const SESSION_COOKIE = 'portal_session';

/** The token of the session cookie the login link set. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const pair of header.split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export type SessionCheck = { ok: true; grant: PortalGrant } | { ok: false; reason: 'expired' | 'invalid' | 'missing' };

export function checkSession(request: FastifyRequest, now: Date, secret: string): SessionCheck {
  const token = sessionToken(request);
  if (!token) return { ok: false, reason: 'missing' };
  return checkPortalToken(token, now, secret);
}

/**
 * The cookie carries the token itself (no server state, any replica can check it) and lives no longer than
 * it. HttpOnly keeps it from scripts; SameSite=Lax keeps other sites from posting portal actions with it.
 */
export function setSession(reply: FastifyReply, token: string, grant: PortalGrant, now: Date): void {
  const maxAge = Math.max(0, Math.floor((grant.expiresAt.getTime() - now.getTime()) / 1000));
  void reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; Path=/portal; HttpOnly; SameSite=Lax`);
}
