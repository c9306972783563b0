/**
 * Execution: intents to venue calls, venue answers and updates to one true state per order.
 * - `venue.ts`: the ExecutionVenue seam every venue implements (broker, backtest, recording stub)
 * - `execution-engine.ts`: the router: intents to venue calls, write outcomes, held changes,
 *   cancel-and-replace
 * - `reconciler.ts`: resync after reconnect, the daily reconcile, the position check, expiry settlement
 * - `lost-answers.ts` (+ `lost-answer-policy.ts`, `lost-answer-verdicts.ts`): the one owner of a
 *   write whose answer was lost: looks by tag, verdicts, the single resend the book allows
 * - `venue-call.ts`: one venue write as data
 * - `funds.ts`: available funds, local reservations, refresh; `fill-gaps.ts`: fill-gap recovery
 * - `smart-emulation.ts`: smart orders (OCO legs) on venues without them
 * - `tags.ts`: the client tag format; `order-journal.ts`: the `tags` / `mods` store namespaces
 * - `write-tracker.ts`: calls awaiting their answer, tags still unsettled
 * - `order-state-machine.ts` + `order-status-merge.ts`: the monotonic merge of out-of-order updates
 * - `fill-ledger.ts`: fills booked once each, synthetic fills, the orders whose fills are still owed
 * - `portfolio.ts`: positions and P&L from fills, exact paise
 * - `trailing-stops.ts`: trailing stop-losses the venue does not trail, within the modification budget
 * - `recording-venue.ts`: an in-process venue that records writes (tests, benches)
 * - `config.ts`: execution options (zod)
 */
export * from './venue.js';
export { ExecutionEngine, type ExecutionEngineOptions } from './execution-engine.js';
export { OrderStateMachine, type NewOrder } from './order-state-machine.js';
export { DEFAULT_TAG_PREFIX, TagMinter, legTag, parseTag, rootTag, type ParsedTag } from './tags.js';
export { pruneJournal, readJournal, writeJournalEntry, type JournalEntry } from './order-journal.js';
export { DEFAULT_LOST_ANSWER_POLICY, type LostAnswerPolicy } from './lost-answer-policy.js';
export type { DayReconcileResult } from './reconciler.js';
export { mergeStatus, statusForFill } from './order-status-merge.js';
export { Portfolio } from './portfolio.js';
export { TrailingStops, type TrailingStopsOptions } from './trailing-stops.js';
export { RecordingVenue, type RecordedWrite, type RecordingVenueOptions } from './recording-venue.js';
export { ExecutionConfigSchema, parseExecutionConfig, type ExecutionConfig, type ExecutionConfigInput } from './config.js';
