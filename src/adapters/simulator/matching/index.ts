/**
 * `simulator/matching`: the one fill model of tarang, free of HTTP and wall time.
 *
 * - `MatchingEngine`: orders (LIMIT, MARKET, STOP_LOSS; DAY/IOC; AMO), smart orders (entry + OCO
 *   legs, trailing), sessions, and `onMarket(update)` to match against market updates. Its parts:
 *   fill-model.ts (how an order fills, pure), matching-state.ts (state, admission, fills booked),
 *   validation.ts, smart-orders.ts, sessions.ts (sessions, expiry, settlement).
 * - `VenueAccount`: funds, margin blocks, positions, holdings, charges, the margin calculator.
 * - `CandleDriver`: plays candles as short price paths through the engine (backtests).
 *
 * Usage (simulator): `const engine = new MatchingEngine({ instruments, clock })`, feed
 * `engine.onMarket(tick)` from the market model, call `placeOrder/modifyOrder/cancelOrder`, and
 * `engine.subscribe(e => push(e))`. Backtest: `new MatchingEngine({ instruments, clock,
 * matchOnArrival: false })` with `new CandleDriver(engine, { bothTouched: 'pessimistic' })`.
 */
export { MatchingEngine } from './matching-engine.js';
export { VenueAccount, type VenueAccountOptions, type Reservation, type SettledPosition } from './account.js';
export { CandleDriver, candlePath, nearerExtremeFirst, BothTouchedRule, type CandleDriverOptions, type CandleInput, type PathPoint } from './candle-driver.js';
export { normaliseRemarks, MAX_REMARKS_LENGTH, RESERVED_REMARKS } from './remarks.js';
export { indianCharges, indianSettlementCharges, STT_OPTIONS_EXERCISED, noCharges, INDIAN_CHARGE_RATES, ZERO_CHARGES, type ChargeCalculator, type ChargeInput, type IndianChargeRates } from './charges.js';
export { VenueStatus, SmartStatus, normaliseVenueStatus, isVenueStatus } from './venue-status.js';
export { VenueInputError, VenueOrderError, VenueNotFoundError, VenueErrorType, isVenueError, type VenueError } from './errors.js';
export { TslMode, MatchingEngineSettingsSchema, type MatchingEngineOptions, type MatchingEngineSettings, type ResolvedSettings } from './options.js';
export type * from './types.js';
export { UpdateMode } from './types.js';
