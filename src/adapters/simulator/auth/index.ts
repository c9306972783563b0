/** Simulated account authentication: credentials, access tokens (spec 3.2), TOTP lockout (3.3). */
export * from './credentials.js';
export * from './token-registry.js';
export * from './totp-lockout.js';
export * from './token-service.js';
export * from './static-ip.js';
