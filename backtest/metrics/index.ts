/** Results: FIFO round trips (trades.ts), the equity curve (equity-curve.ts), metrics (performance.ts). */
export * from './trades.js';
export * from './equity-curve.js';
export * from './performance.js';
