import { z } from 'zod';

/** Canonical 8-4-4-4-12 hex form, any version or variant (seeded ids such as 1111…1111 included), either case. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_PATTERN.test(s);
}

// Not z.uuid(): zod 4 checks RFC 9562 version bits and would refuse the private coverage constant.
export const uuidSchema = z.string().regex(UUID_PATTERN, 'Expected a UUID (8-4-4-4-12 hex)');
