import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

export const CODE_LIFETIME_MS = 15 * 60_000;
/** Wrong guesses allowed on one code before it stops working (a 6-digit code must not be brute-forced). */
export const MAX_CODE_ATTEMPTS = 5;

/*
 * A code has only a million values, so a bare hash is read back by trying them all. A random salt per code rules
 * out a table of all codes, and scrypt makes trying a million of them cost hours for one code, which lives 15 minutes.
 * Stored as `scrypt1:<salt base64url>:<hash base64url>`.
 */
const SCHEME = 'scrypt1';
const SCRYPT_OPTIONS = { N: 1 << 13, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };
const HASH_BYTES = 32;

export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const derive = (code: string, salt: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(code, salt, HASH_BYTES, SCRYPT_OPTIONS, (error, key) => (error ? reject(error) : resolve(key))));

export async function hashCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  return `${SCHEME}:${salt.toString('base64url')}:${(await derive(code, salt)).toString('base64url')}`;
}

/** False for any stored value not of this scheme (codes from before salting were retired by a migration). */
export async function codeMatches(code: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash, ...rest] = stored.split(':');
  if (scheme !== SCHEME || !salt || !hash || rest.length > 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length !== HASH_BYTES) return false;
  return timingSafeEqual(await derive(code, Buffer.from(salt, 'base64url')), expected);
}
