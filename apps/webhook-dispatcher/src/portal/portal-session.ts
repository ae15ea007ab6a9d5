import { createHmac, timingSafeEqual } from 'node:crypto';
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

export type SessionCheck = { ok: true; grant: PortalGrant; token: string } | { ok: false; reason: 'expired' | 'invalid' | 'missing' };

export function checkSession(request: FastifyRequest, now: Date, secret: string): SessionCheck {
  const token = sessionToken(request);
  if (!token) return { ok: false, reason: 'missing' };
  const check = checkPortalToken(token, now, secret);
  return check.ok ? { ...check, token } : check;
}

/**
 * The cookie carries the token itself (no server state, any replica can check it) and lives no longer than
 * it. HttpOnly keeps it from scripts; SameSite=Lax keeps other sites' posts from carrying it (form tokens, below,
 * cover browsers that ignore it); Secure whenever the portal is served at an https `portalBaseUrl`
 * (PORTAL_BASE_URL: a proxy that does not send `X-Forwarded-Proto` must not make it travel in clear) or the browser
 * reached us over HTTPS, directly or as the proxy says (trusted as runService configures Fastify). Plain http on
 * localhost gets no Secure, which browsers would drop there.
 */
export function setSession(
  reply: FastifyReply,
  request: FastifyRequest,
  session: { token: string; grant: PortalGrant; now: Date; portalBaseUrl: string },
): void {
  const { token, grant, now, portalBaseUrl } = session;
  const maxAge = Math.max(0, Math.floor((grant.expiresAt.getTime() - now.getTime()) / 1000));
  const secure = portalBaseUrl.startsWith('https:') || request.protocol === 'https' ? '; Secure' : '';
  void reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; Path=/portal; HttpOnly; SameSite=Lax${secure}`);
}

/** The form token of a session: derived from its cookie, so a page of another site can neither read nor guess it. */
export function csrfToken(secret: string, session: string): string {
  return createHmac('sha256', secret).update(`portal-csrf.${session}`).digest('base64url');
}

/** Whether a form post carries the form token of the session it came with. */
export function csrfMatches(request: FastifyRequest, secret: string, session: string): boolean {
  const given = (request.body as { csrf?: unknown } | undefined)?.csrf;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, session));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
