/**
 * Spec 3.5: smart-order legs on the right side of the entry price, with the broker's own rule and
 * message — the very function the simulator's matching engine uses (one rule, one wording).
 */
import { DenialCode } from '../../core/events.js';
import { checkSmartLegBounds, smartEntryPrice } from '../rules/smart-leg-bounds.js';
import { OK, type RiskCheck } from '../types.js';

export const smartLegBoundsCheck: RiskCheck = {
  name: 'smartLegBounds',
  check(intent, state) {
    if (intent.kind !== 'smart' || (!intent.stopLoss && !intent.target)) return OK;
    const entry = smartEntryPrice(intent.entryType, {
      limitPrice: intent.limitPrice,
      triggerPrice: intent.triggerPrice,
      triggerLimitPrice: intent.triggerLimitPrice,
      lastPrice: state.lastPrice(intent.instrument),
    });
    // A MARKET entry with no known price: the venue checks against its own price.
    if (entry === undefined) return OK;
    const msg = checkSmartLegBounds({
      side: intent.side,
      entryPrice: entry,
      slTriggerPrice: intent.stopLoss?.triggerPrice,
      tgtTriggerPrice: intent.target?.triggerPrice,
    });
    return msg ? { code: DenialCode.SMART_LEG_BOUND, reason: msg } : OK;
  },
};
