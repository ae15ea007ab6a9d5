/** The secret that signs and checks portal links (PORTAL_TOKEN_SECRET). */
export const PORTAL_SECRET = Symbol('PORTAL_SECRET');
