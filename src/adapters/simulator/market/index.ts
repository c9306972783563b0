/**
 * `simulator/market`: seeded, deterministic price paths for the simulator (and benches).
 *
 * - `MarketModel`: GBM per instrument with an intraday U-shaped activity profile, tick-size and
 *   circuit aware, top of book + lazy 5-level depth, cumulative volume, OI for derivatives.
 *   `advanceTo(ts)` returns the ticks due; `setPrice(id, price, ts)` overrides a price (POST
 *   /sim/prices); `quote(id)` / `depth(id)` / `last(id)` serve the quote endpoints;
 *   `startSession(openTs)` rolls to the next day.
 * - `MarketSessionDriver`: plays the model into a `MatchingEngine` along the trading calendar
 *   (session open, ticks, DAY expiry at the close, roll to the next session); `pump(now)`.
 * - `syntheticSpec(instrument, seed)`: a plausible previous close when none is known.
 *
 * Ticks are core `TickEvent`s and structurally `MarketUpdate`s: feed them to
 * `MatchingEngine.onMarket` as they are (pass `depth: (id) => model.depth(id)` to the engine so
 * arrivals walk the 5-level book).
 */
export { MarketModel, MarketModelOptionsSchema, UnknownInstrumentError, type MarketModelOptions } from './market-model.js';
export { syntheticSpec, INDEX_LEVELS } from './synthetic-spec.js';
export { MarketSessionDriver, type MarketSessionDriverOptions, type SessionCalendar } from './session-driver.js';
export { activity } from './activity.js';
export { RandomStreams, hashSeed, mix32 } from './rng.js';
export type { MarketInstrumentSpec, MarketQuote, MarketTick, LinkedMark, ContractValuer, InstrumentOpenState } from './types.js';
