import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_LIFETIME_MS = 15 * 60_000;
/** Wrong guesses allowed on one code before it stops working (a 6-digit code must not be brute-forced). */
export const MAX_CODE_ATTEMPTS = 5;

export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function codeMatches(code: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(hashCode(code), 'hex'), Buffer.from(hash, 'hex'));
}
