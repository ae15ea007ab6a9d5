/** The secret that signs and checks portal links (PORTAL_TOKEN_SECRET). */
export const PORTAL_SECRET = Symbol('PORTAL_SECRET');

/** Where browsers reach the portal (PORTAL_BASE_URL). */
export const PORTAL_BASE_URL = Symbol('PORTAL_BASE_URL');
