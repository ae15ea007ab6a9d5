import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { bootWith, expectBootRefused, secretValue } from '@storage/testing';

const MAIN = path.resolve(__dirname, '../../dist/main.js');

describe('booting with a bad configuration', () => {
  it('stops at once with a message naming each variable at fault', () => {
    expectBootRefused(MAIN, 'DISPATCHER_PORT');
  });

  it('refuses a bad WEBHOOK_SECRET_KEYS, or none in production, without printing the keys', () => {
    const key = randomBytes(32).toString('base64');
    const duplicate = bootWith(MAIN, { WEBHOOK_SECRET_KEYS: `k1:${key},k1:${key},k2:c2hvcnQ=` });
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain('WEBHOOK_SECRET_KEYS.2: key id "k1" is used twice');
    expect(duplicate.stderr).toContain('WEBHOOK_SECRET_KEYS.3: key "k2" must be 32 bytes in base64 (AES-256), got 5 bytes');
    expect(duplicate.stderr).not.toContain(key);

    const production = bootWith(MAIN, { NODE_ENV: 'production', PORTAL_TOKEN_SECRET: 'a-production-portal-secret-of-32-characters' });
    expect(production.status).toBe(1);
    expect(production.stderr).toContain('WEBHOOK_SECRET_KEYS: is required in production');
  });

  it('refuses a short PORTAL_TOKEN_SECRET without printing it', () => {
    const portalSecret = secretValue();
    const result = bootWith(MAIN, { PORTAL_TOKEN_SECRET: portalSecret });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORTAL_TOKEN_SECRET: must be at least 32 characters');
    expect(result.stderr + result.stdout).not.toContain(portalSecret);
  });
});
