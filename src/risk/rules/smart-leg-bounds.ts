/**
 * Spec 3.5: a smart order's stop-loss and target legs must sit on the right side of the entry
 * price. For a BUY the stop-loss trigger is below the entry and the target above; for a SELL the
 * reverse. The message names the bound ("SL trigger price should be less than 1420.50"). Pure, so
 * the risk layer applies the same rule and the same words before anything reaches the venue.
 */
import type { Side } from '../../core/enums.js';
import { formatRupees, type Paise } from '../../core/money.js';
import type { SmartEntryType } from '../../core/intents.js';

export interface SmartLegBoundsInput {
  readonly side: Side;
  /** The entry price; see `smartEntryPrice`. */
  readonly entryPrice: Paise;
  readonly slTriggerPrice?: Paise;
  readonly tgtTriggerPrice?: Paise;
}

/** undefined when both legs are on the right side, else the rejection message. */
export function checkSmartLegBounds(input: SmartLegBoundsInput): string | undefined {
  const { side, entryPrice, slTriggerPrice: sl, tgtTriggerPrice: tgt } = input;
  const bound = formatRupees(entryPrice);
  if (side === 'BUY') {
    if (sl !== undefined && !(sl < entryPrice)) return `SL trigger price should be less than ${bound}`;
    if (tgt !== undefined && !(tgt > entryPrice)) return `Target trigger price should be greater than ${bound}`;
  } else {
    if (sl !== undefined && !(sl > entryPrice)) return `SL trigger price should be greater than ${bound}`;
    if (tgt !== undefined && !(tgt < entryPrice)) return `Target trigger price should be less than ${bound}`;
  }
  return undefined;
}

/**
 * The entry price the legs are checked against: LIMIT -> limit price; TRIGGER -> trigger limit
 * price, else trigger price (spec 3.5; `limit_price` is not used); MARKET -> the last price.
 * undefined when the needed price is missing.
 */
export function smartEntryPrice(
  entryType: SmartEntryType,
  prices: { limitPrice?: Paise; triggerPrice?: Paise; triggerLimitPrice?: Paise; lastPrice?: Paise },
): Paise | undefined {
  if (entryType === 'LIMIT') return prices.limitPrice;
  if (entryType === 'TRIGGER') return prices.triggerLimitPrice ?? prices.triggerPrice;
  return prices.lastPrice;
}
