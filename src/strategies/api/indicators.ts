/**
 * `tarang/indicators`: the indicators a strategy file may use (see docs/strategies.md).
 *
 *   import { SMA, CrossDetector } from 'tarang/indicators';
 */
export * from '../indicators/index.js';
