/** The simulator's control side: injected faults, the request log, seeded draws. Routes: control/routes.ts. */
export * from './faults.js';
export * from './request-log.js';
export * from './rng.js';
export * from './paced-clock.js';
