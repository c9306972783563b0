/**
 * `tarang/strategy`: everything a strategy file needs, from one import, wherever the file lives.
 *
 *   import { defineStrategy, z } from 'tarang/strategy';
 *
 * `z` is tarang's own zod, so a strategy in a folder of its own needs no dependency installed
 * there. When tarang loads a strategy file (`--strategy ./x.ts`, a path in the daemon's YAML) it
 * resolves `tarang/*` to the running tarang itself (strategy-file.ts), so the file needs no
 * `npm install` either; editors and `tsc` find the types through package.json `exports` once the
 * folder links tarang (`npm link tarang` or `npm install /path/to/tarang`).
 */
export { z } from 'zod';
export { defineStrategy } from '../strategy.js';
export type {
  ClockView,
  IntentDraft,
  OrderOptions,
  OrdersView,
  PortfolioView,
  PositionView,
  Strategy,
  StrategyContext,
  StrategyDefinition,
  StrategyInfo,
} from '../strategy.js';
export type { ParamSpace, SpaceRange, SpaceSpec, SpaceValue } from '../space.js';
export type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent, TickEvent } from '../../core/events.js';
export type { CancelIntent, ExitIntent, ModifyIntent, PlaceIntent, SmartIntent } from '../../core/intents.js';
export type { Instrument, InstrumentLookup } from '../../core/instruments.js';
export { ALL_INTERVALS, Interval, isInterval, intervalMs } from '../../core/candles.js';
export { OrderStatus, OrderType, Product, Side, Validity, isTerminalStatus } from '../../core/enums.js';
export { Rounding, formatInr, isOnTick, roundToTick, rupeesToTick, toRupees, type Paise } from '../../core/money.js';
export { cfg } from '../../core/config.js';
