import { randomBytes } from 'node:crypto';
import { SecretKeyring, type SecretKey } from '@storage/webhooks';

/** A key for this test run; the spawned dispatcher gets it as WEBHOOK_SECRET_KEYS. */
export const TEST_SECRET_KEY: SecretKey = { id: 'test-1', key: randomBytes(32) };

export const testKeyring = new SecretKeyring([TEST_SECRET_KEY]);

/** The WEBHOOK_SECRET_KEYS text of keys, in order. */
export const secretKeysVariable = (...keys: SecretKey[]): string => keys.map(({ id, key }) => `${id}:${key.toString('base64')}`).join(',');
