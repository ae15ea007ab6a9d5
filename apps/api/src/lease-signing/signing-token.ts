import { createHash, randomBytes } from 'node:crypto';

/** A lease's signing token, the credential of its link: 32 random bytes, base64url (43 characters). */
export function newSigningToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the lease keeps of its token (`leases.signing_token_hash`), so a read of the database signs nothing: the
 * SHA-256 in hex, as API keys are kept. The token is random, so a plain hash is enough and allows a direct look-up.
 */
export function hashSigningToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
