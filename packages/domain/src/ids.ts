import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Canonical 8-4-4-4-12 hex form, any version or variant (seeded ids such as 1111…1111 included), either case. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_PATTERN.test(s);
}

// Not z.uuid(): zod 4 checks RFC 9562 version bits and would refuse the private coverage constant.
export const uuidSchema = z.string().regex(UUID_PATTERN, 'Expected a UUID (8-4-4-4-12 hex)');

/**
 * A version 7 UUID (RFC 9562): the Unix time in milliseconds, then random bits. Rows keyed by it are inserted at the
 * right edge of their index, which stays in memory, instead of on a random page of an index that outgrows it.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
