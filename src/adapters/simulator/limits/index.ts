/** Rate limits of spec 8: categories, default budgets and the per-user limiter. */
export * from './rate-category.js';
export * from './rate-limiter.js';
