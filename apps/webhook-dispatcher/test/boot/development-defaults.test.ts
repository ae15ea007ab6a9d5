import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { startDispatcher } from '../support/dispatcher-process';

/** Issue 14, "scopes do not hold", item 5: development defaults say so at boot. */
describe('booting on development defaults', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it('warns that portal links are signed with the public development secret, and not when a secret is set', async () => {
    const defaults = await startDispatcher({ DATABASE_URL: database.url });
    try {
      await eventually(() => expect(defaults.output()).toMatch(/PORTAL_TOKEN_SECRET is unset: portal links are signed with the public development secret/));
    } finally {
      await defaults.stop();
    }
    const configured = await startDispatcher({ DATABASE_URL: database.url, PORTAL_TOKEN_SECRET: 'a-real-portal-secret-of-at-least-32-characters' });
    try {
      expect(configured.output()).not.toContain('PORTAL_TOKEN_SECRET');
    } finally {
      await configured.stop();
    }
  }, 90_000);
});
