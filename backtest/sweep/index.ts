/** Parameter sweeps: grids (sweep-grid.ts), the worker pool and ranking (sweep.ts). */
export * from './sweep-grid.js';
export * from './sweep.js';
export type * from './sweep-types.js';
