import { createHmac, hkdfSync, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

export const CODE_LIFETIME_MS = 15 * 60_000;
/** Wrong guesses allowed on one code before it stops working (a 6-digit code must not be brute-forced). */
export const MAX_CODE_ATTEMPTS = 5;

/*
 * A code has only a million values, so a bare hash is read back by trying them all. A random salt per code rules
 * out a table of all codes, and scrypt makes each try cost ~50 ms of CPU; but a GPU runs scrypt of this size about
 * ten thousand times a second, a million tries in minutes, within a code's 15-minute life. So the code is first
 * keyed with HMAC by a key the database does not hold (derived from the server's secret, below): a dump of the
 * table alone gives nothing to try codes against. Stored as `scrypt2:<salt base64url>:<hash base64url>`; other
 * schemes (`scrypt1`, unkeyed, from before) no longer match, and their codes, 15 minutes at most, are asked again.
 */
const SCHEME = 'scrypt2';
const SCRYPT_OPTIONS = { N: 1 << 13, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };
const HASH_BYTES = 32;

/** Provides the codes' key (a Buffer) to the returning-tenant flow. */
export const VERIFICATION_CODE_KEY = Symbol('VERIFICATION_CODE_KEY');

/** The codes' key, derived from a server secret (PORTAL_TOKEN_SECRET) for this use alone. */
export function verificationCodeKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'storage-api/verification-codes', 32));
}

export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const derive = (code: string, key: Buffer, salt: Buffer): Promise<Buffer> => {
  const keyed = createHmac('sha256', key).update(code).digest();
  return new Promise((resolve, reject) => scrypt(keyed, salt, HASH_BYTES, SCRYPT_OPTIONS, (error, hash) => (error ? reject(error) : resolve(hash))));
};

export async function hashCode(code: string, key: Buffer): Promise<string> {
  const salt = randomBytes(16);
  return `${SCHEME}:${salt.toString('base64url')}:${(await derive(code, key, salt)).toString('base64url')}`;
}

/** False for any stored value not of this scheme. */
export async function codeMatches(code: string, stored: string, key: Buffer): Promise<boolean> {
  const [scheme, salt, hash, ...rest] = stored.split(':');
  if (scheme !== SCHEME || !salt || !hash || rest.length > 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length !== HASH_BYTES) return false;
  return timingSafeEqual(await derive(code, key, Buffer.from(salt, 'base64url')), expected);
}
