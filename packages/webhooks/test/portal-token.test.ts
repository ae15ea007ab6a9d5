import { checkPortalToken, issuePortalToken, PORTAL_TOKEN_LIFETIME_MS } from '../src/portal-token';

const SECRET = 'portal-test-secret';
const now = new Date('2025-03-01T12:00:00Z');

describe('portal token', () => {
  it('grants its portfolio for 7 days', () => {
    const { token, expiresAt } = issuePortalToken('acme', now, SECRET);
    expect(expiresAt.getTime() - now.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(checkPortalToken(token, new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS - 1), SECRET)).toEqual({
      ok: true,
      grant: { portfolio: 'acme', expiresAt },
    });
  });

  it('is expired from the 7-day mark', () => {
    const { token } = issuePortalToken('acme', now, SECRET);
    expect(checkPortalToken(token, new Date(now.getTime() + PORTAL_TOKEN_LIFETIME_MS), SECRET)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another secret, a changed payload, or garbage', () => {
    const { token } = issuePortalToken('acme', now, SECRET);
    expect(checkPortalToken(token, now, 'other')).toEqual({ ok: false, reason: 'invalid' });
    const [, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'other-portfolio', e: now.getTime() + 1e9 })).toString('base64url');
    expect(checkPortalToken(`${forged}.${signature}`, now, SECRET)).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['', '.', 'a.b.c', 'abc', `${token}x`]) expect(checkPortalToken(junk, now, SECRET).ok).toBe(false);
  });
});
