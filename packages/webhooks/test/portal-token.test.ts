import { checkPortalToken, issuePortalToken, PORTAL_TOKEN_LIFETIME_MS } from '../src/portal-token';

import { createHmac } from 'node:crypto';

const SECRET = 'portal-test-secret';
const now = new Date('2025-03-01T12:00:00Z');
const KEY = '6f1c1f7e-2d1a-4c55-9a43-0f5f3f0c2b11';

/** A token signed with the right secret over any claims: what a holder of the secret could make. */
const signed = (claims: object): string => {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${createHmac('sha256', SECRET).update(`portal.${payload}`).digest('base64url')}`;
};

describe('portal token', () => {
  it('grants its portfolio for 7 days', () => {
    const { token, expiresAt } = issuePortalToken('acme', now, SECRET, KEY);
    expect(expiresAt.getTime() - now.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(checkPortalToken(token, new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS - 1), SECRET)).toEqual({
      ok: true,
      grant: { portfolio: 'acme', expiresAt, apiKeyUuid: KEY },
    });
  });

  it('is expired from the 7-day mark', () => {
    const { token } = issuePortalToken('acme', now, SECRET, KEY);
    expect(checkPortalToken(token, new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS), SECRET)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another secret, a changed payload, or garbage', () => {
    const { token } = issuePortalToken('acme', now, SECRET, KEY);
    expect(checkPortalToken(token, now, 'other')).toEqual({ ok: false, reason: 'invalid' });
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'other-portfolio', e: now.getTime() + 1e9 })).toString('base64url');
    expect(checkPortalToken(`${forged}.${signature}`, now, SECRET)).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['', '.', 'a.b.c', 'abc', `${token}x`]) expect(checkPortalToken(junk, now, SECRET).ok).toBe(false);
  });

  it('refuses an expiry beyond the 7-day lifetime, however well signed (year 9999 links)', () => {
    expect(checkPortalToken(signed({ p: 'acme', e: Date.UTC(9999, 0, 1), k: KEY }), now, SECRET)).toEqual({ ok: false, reason: 'invalid' });
    const longest = now.getTime() + PORTAL_TOKEN_LIFETIME_MS;
    expect(checkPortalToken(signed({ p: 'acme', e: longest + 5 * 60_000, k: KEY }), now, SECRET)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkPortalToken(signed({ p: 'acme', e: longest, k: KEY }), now, SECRET).ok).toBe(true);
  });

  it('names the API key it was issued to, and refuses a token that names none', () => {
    expect(checkPortalToken(signed({ p: 'acme', e: now.getTime() + 60_000 }), now, SECRET)).toEqual({ ok: false, reason: 'invalid' });
  });
});
