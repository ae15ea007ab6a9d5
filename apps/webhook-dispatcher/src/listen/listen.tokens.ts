/** The secret the api signs listen grants with (the portal's token secret, under its own purpose). */
export const LISTEN_SECRET = Symbol('LISTEN_SECRET');
