/**
 * Signs portal links when `PORTAL_TOKEN_SECRET` is unset outside production. Public on purpose: it only
 * suits a developer's machine, and both services refuse to start in production without a real secret.
 */
export const DEVELOPMENT_PORTAL_TOKEN_SECRET = 'development-only-portal-token-secret-do-not-use';

export const MIN_PORTAL_TOKEN_SECRET_LENGTH = 32;

/** The secret to sign portal tokens with, or an error message naming the variable when production lacks one. */
export function portalTokenSecret(nodeEnv: string, configured: string | undefined): { secret: string } | { error: string } {
  if (configured) return { secret: configured };
  if (nodeEnv === 'production') return { error: 'is required in production' };
  return { secret: DEVELOPMENT_PORTAL_TOKEN_SECRET };
}

/** The boot warning of a service signing or checking portal links with the development default, if it does. */
export function portalSecretWarnings(secret: string): string[] {
  return secret === DEVELOPMENT_PORTAL_TOKEN_SECRET
    ? [
        'PORTAL_TOKEN_SECRET is unset: portal links are signed with the public development secret, so anyone can forge them. Set it (at least 32 characters, the same in the api and the dispatcher) anywhere but on a developer machine.',
      ]
    : [];
}
