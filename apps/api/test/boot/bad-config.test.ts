import path from 'node:path';
import { bootWith, expectBootRefused, secretValue } from '@storage/testing';

const MAIN = path.resolve(__dirname, '../../dist/main.js');

describe('booting with a bad configuration', () => {
  it('stops at once with a message naming each variable at fault', () => {
    expectBootRefused(MAIN, 'API_PORT');
  });

  it('names the secret variables and their rules, never their values', () => {
    const password = secretValue();
    const portalSecret = secretValue();
    // A port pg cannot read: refused by the configuration, not by the driver with its own message.
    const result = bootWith(MAIN, { DATABASE_URL: `postgres://storage:${password}@db.internal:port/storage`, PORTAL_TOKEN_SECRET: portalSecret });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// connection URL');
    expect(result.stderr).toContain('PORTAL_TOKEN_SECRET: must be at least 32 characters');
    expect(result.stderr + result.stdout).not.toContain(password);
    expect(result.stderr + result.stdout).not.toContain(portalSecret);
  });
});
