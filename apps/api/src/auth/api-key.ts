import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'sk_';

/** `sk_` + 32 random bytes, base64url: unguessable, safe in headers and shells. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are high-entropy, so a plain SHA-256 is enough (no salt or slow hash needed) and allows a direct look-up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
