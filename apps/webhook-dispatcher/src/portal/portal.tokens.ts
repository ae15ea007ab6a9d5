/** The secret that signs and checks portal links (PORTAL_TOKEN_SECRET). */
export const PORTAL_SECRET = Symbol('PORTAL_SECRET');

/** Where browsers reach the portal (PORTAL_BASE_URL). */
export const PORTAL_BASE_URL = Symbol('PORTAL_BASE_URL');

/** The target URL rules of operation 15 (WEBHOOK_ALLOWED_SUBNETS) and the resolver they check hostnames with. */
export const PORTAL_ADDRESS_POLICY = Symbol('PORTAL_ADDRESS_POLICY');
export const PORTAL_HOST_RESOLVER = Symbol('PORTAL_HOST_RESOLVER');
