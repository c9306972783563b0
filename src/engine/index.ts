/**
 * The engine kernel: composes the bus, the strategies (safe runners), risk and execution over any
 * `ExecutionVenue`. The daemon (live and paper) and the backtester build this one object.
 */
export { Engine } from './engine.js';
export type { EngineOptions, StrategySpec } from './engine-options.js';
