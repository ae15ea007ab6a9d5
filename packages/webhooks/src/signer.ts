import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 24 random bytes (ARCHITECTURE.md "Webhook delivery"). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export function isSecret(value: string): boolean {
  return value.startsWith(SECRET_PREFIX) && value.length > SECRET_PREFIX.length;
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function signingKey(secret: string): Buffer {
  if (!isSecret(secret)) throw new RangeError('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** One `v1,<base64>` entry: HMAC-SHA256 over `<id>.<timestamp>.<body>`. */
export function signatureEntry(key: Buffer, messageId: string, timestampSeconds: number, body: string): string {
  return 'v1,' + createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
}

/** The `hook-signature` header: one entry per live secret, space-separated (several during a rotation). */
export function signatureHeader(keys: readonly Buffer[], messageId: string, timestampSeconds: number, body: string): string {
  return keys.map((key) => signatureEntry(key, messageId, timestampSeconds, body)).join(' ');
}

/** The three delivery headers of Standard Webhooks, with the `hook-` names of spec 5.1. */
export function signedHeaders(keys: readonly Buffer[], messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'hook-id': messageId,
    'hook-timestamp': String(timestampSeconds),
    'hook-signature': signatureHeader(keys, messageId, timestampSeconds, body),
  };
}
