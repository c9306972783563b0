/**
 * The trailing rule of spec 3.4, for a stop the strategy trails itself: the stop-loss follows
 * favourable movement in whole steps and holds when the price turns.
 *
 *   BUY:  stop = initial + floor((best high since entry - entry) / step) x step
 *   SELL: stop = initial - floor((entry - best low since entry) / step) x step
 *
 * orb-smart trails this way because its entry is a TRIGGER smart order, on which spec 3.4 does
 * not allow `is_tsl` (tarang's risk layer refuses a trailing step there), so neither the broker
 * nor the engine's emulator will trail it.
 */
import type { Side } from '../../core/enums.js';
import { Rounding, roundToTick, type Paise } from '../../core/money.js';

export interface TrailInput {
  readonly side: Side;
  readonly entry: Paise;
  readonly initialStop: Paise;
  /** Highest price since entry for a BUY, lowest for a SELL. */
  readonly best: Paise;
  readonly step: Paise;
  readonly tick: Paise;
}

/** Where the stop belongs now (never behind the initial stop). */
export function trailedStop(t: TrailInput): Paise {
  const dir = t.side === 'BUY' ? 1 : -1;
  const gain = dir * (t.best - t.entry);
  const steps = gain > 0 ? Math.floor(gain / t.step + 1e-9) : 0;
  return roundToTick(t.initialStop + dir * steps * t.step, t.tick, dir > 0 ? Rounding.DOWN : Rounding.UP);
}
