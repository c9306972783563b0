/**
 * The smart order `orb-smart` places on a breakout: a TRIGGER parent just beyond the breakout
 * candle's close, a stop-loss and a target leg, and the optional trailing step the strategy
 * applies itself once in the trade. Pure, so the arithmetic is tested on its own.
 *
 * The legs are deliberately not pre-checked against spec 3.5 here: the risk layer applies the
 * broker's own rule and message (`checkSmartLegBounds`), and a denial reaches the strategy like any
 * other. A range-based target can legitimately fall on the wrong side after a long breakout candle
 * (the close is already past `rangeHigh + k x width`): that trade is then refused, not reshaped.
 */
import type { Side } from '../../core/enums.js';
import type { SmartIntent, SmartLeg } from '../../core/intents.js';
import { Rounding, roundToTick, rupeesToTick, type Paise } from '../../core/money.js';
import type { OrbSmartParams } from './params.js';

export type SmartDraft = Omit<SmartIntent, 'id' | 'strategyId'>;

export interface Breakout {
  readonly side: Side;
  /** Close of the candle that broke out, paise. */
  readonly close: Paise;
  readonly rangeHigh: Paise;
  readonly rangeLow: Paise;
}

export interface EntryPlan {
  /** The smart order; it carries no `trailingStep` (spec 3.4: no trailing on a TRIGGER parent). */
  readonly intent: SmartDraft;
  /** Trailing step on the tick, paise, when trailing is on: the strategy trails the leg itself. */
  readonly trailStep?: Paise;
  /** The entry price the legs are measured from (spec 3.5: trigger limit, else trigger). */
  readonly entryPrice: Paise;
  /** Entry-to-stop distance, paise (positive for well-formed plans). */
  readonly risk: Paise;
}

type PlanParams = Pick<
  OrbSmartParams,
  'instrument' | 'qty' | 'entryBufferTicks' | 'entryLimitTicks' | 'stopMode' | 'stopValue' | 'targetMode' | 'targetValue' | 'trailingStep' | 'product'
>;

export function planEntry(p: PlanParams, b: Breakout, tick: Paise): EntryPlan {
  const dir = b.side === 'BUY' ? 1 : -1;
  // Prices that must not be worse than asked round away from the market for entries and
  // protective stops: a BUY trigger up, a BUY stop down; mirrored for a SELL.
  const away = (up: boolean): Rounding => (up ? Rounding.UP : Rounding.DOWN);
  const trigger = roundToTick(b.close + dir * p.entryBufferTicks * tick, tick, away(dir > 0));
  const triggerLimit = p.entryLimitTicks === undefined ? undefined : trigger + dir * p.entryLimitTicks * tick;
  const entry = triggerLimit ?? trigger;

  let stop: Paise;
  if (p.stopMode === 'range') stop = dir > 0 ? b.rangeLow : b.rangeHigh;
  else if (p.stopMode === 'percent') stop = roundToTick(entry * (1 - (dir * p.stopValue) / 100), tick, away(dir < 0));
  else stop = entry - dir * rupeesToTick(p.stopValue, tick, Rounding.UP);
  stop = roundToTick(stop, tick, away(dir < 0));
  const risk = dir * (entry - stop);

  let target: Paise;
  if (p.targetMode === 'rr') target = entry + dir * risk * p.targetValue;
  else if (p.targetMode === 'percent') target = entry * (1 + (dir * p.targetValue) / 100);
  else if (p.targetMode === 'points') target = entry + dir * rupeesToTick(p.targetValue, tick, Rounding.UP);
  else {
    const width = b.rangeHigh - b.rangeLow;
    target = (dir > 0 ? b.rangeHigh : b.rangeLow) + dir * width * p.targetValue;
  }
  // Targets round towards the entry: a target one tick nearer is reached, never one tick farther.
  target = roundToTick(target, tick, away(dir < 0));

  const stopLoss: SmartLeg = { triggerPrice: stop };
  const targetLeg: SmartLeg = { triggerPrice: target };
  const trailingStep = p.trailingStep > 0 ? Math.max(tick, rupeesToTick(p.trailingStep, tick)) : undefined;
  const intent: SmartDraft = {
    kind: 'smart',
    instrument: p.instrument,
    side: b.side,
    qty: p.qty,
    entryType: 'TRIGGER',
    triggerPrice: trigger,
    ...(triggerLimit === undefined ? {} : { triggerLimitPrice: triggerLimit }),
    stopLoss,
    target: targetLeg,
    validity: 'DAY',
    product: p.product,
  };
  return { intent, entryPrice: entry, risk, ...(trailingStep === undefined ? {} : { trailStep: trailingStep }) };
}
