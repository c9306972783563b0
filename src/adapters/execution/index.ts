/**
 * Execution: intents to venue calls, venue answers and updates to one true state per order.
 * - `venue.ts`: the ExecutionVenue seam every venue implements (broker, backtest, recording stub)
 * - `execution-engine.ts`: routing, tagging, journaling, reconciliation by tag, cancel-and-replace,
 *   OCO emulation, fill-gap recovery
 * - `order-state-machine.ts` + `order-status-merge.ts`: the monotonic merge of out-of-order updates
 * - `portfolio.ts`: positions and P&L from fills, exact paise
 * - `trailing-stops.ts`: trailing stop-losses the venue does not trail, within the modification budget
 * - `recording-venue.ts`: an in-process venue that records writes (tests, benches)
 * - `config.ts`: execution options (zod)
 */
export * from './venue.js';
export { ExecutionEngine, type ExecutionEngineOptions } from './execution-engine.js';
export { OrderStateMachine, legTag, type NewOrder } from './order-state-machine.js';
export { mergeStatus, statusForFill } from './order-status-merge.js';
export { Portfolio } from './portfolio.js';
export { TrailingStops, type TrailingStopsOptions } from './trailing-stops.js';
export { RecordingVenue, type RecordedWrite, type RecordingVenueOptions } from './recording-venue.js';
export { ExecutionConfigSchema, parseExecutionConfig, type ExecutionConfig, type ExecutionConfigInput } from './config.js';
