/** The intent names a tradable instrument (known, not an index) or an order we know, with a sane quantity. */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const instrumentCheck: RiskCheck = {
  name: 'instrument',
  check(intent, state) {
    if (intent.kind === 'modify' || intent.kind === 'cancel') {
      const o = state.order(intent.target);
      if (!o) return { code: DenialCode.UNKNOWN_ORDER, reason: `no order with tag ${intent.target}` };
      if (intent.kind === 'modify') {
        if (intent.qty === undefined && intent.limitPrice === undefined && intent.triggerPrice === undefined) {
          return { code: DenialCode.INVALID_INTENT, reason: 'modify changes nothing: give qty, limitPrice or triggerPrice' };
        }
        if (intent.qty !== undefined && (!Number.isSafeInteger(intent.qty) || intent.qty <= o.filledQty)) {
          return { code: DenialCode.INVALID_INTENT, reason: `qty ${intent.qty} must be a whole number above the filled ${o.filledQty}` };
        }
      }
      return OK;
    }
    const inst = state.instrument(intent.instrument);
    if (!inst) return { code: DenialCode.UNKNOWN_INSTRUMENT, reason: `unknown instrument ${intent.instrument}` };
    if (inst.segment === 'INDEX') return { code: DenialCode.UNKNOWN_INSTRUMENT, reason: `${intent.instrument} is an index and cannot be traded` };
    if (intent.kind === 'place' || intent.kind === 'smart') {
      if (!Number.isSafeInteger(intent.qty) || intent.qty <= 0) return { code: DenialCode.INVALID_INTENT, reason: `qty must be a positive whole number, got ${intent.qty}` };
      if (intent.kind === 'place') {
        if (intent.orderType === 'LIMIT' && intent.limitPrice === undefined) return { code: DenialCode.INVALID_INTENT, reason: 'LIMIT order without limitPrice' };
        if (intent.orderType === 'STOP_LOSS' && intent.triggerPrice === undefined) return { code: DenialCode.INVALID_INTENT, reason: 'STOP_LOSS order without triggerPrice' };
      } else {
        if (intent.entryType === 'LIMIT' && intent.limitPrice === undefined) return { code: DenialCode.INVALID_INTENT, reason: 'LIMIT smart order without limitPrice' };
        if (intent.entryType === 'TRIGGER' && intent.triggerPrice === undefined) return { code: DenialCode.INVALID_INTENT, reason: 'TRIGGER smart order without triggerPrice' };
        if (intent.trailingStep !== undefined && !intent.stopLoss) return { code: DenialCode.INVALID_INTENT, reason: 'a trailing stop needs a stop-loss leg (spec 3.4)' };
        // Spec 3.4 refuses `is_tsl` on a TRIGGER parent; a trail the engine runs by modifying the
        // leg sends no is_tsl, so it is only refused when the venue would be asked to trail.
        if (intent.trailingStep !== undefined && intent.entryType === 'TRIGGER' && state.trailingMode === 'venue') {
          return { code: DenialCode.INVALID_INTENT, reason: 'trailing stop-loss (is_tsl) is unsupported for TRIGGER smart orders at the venue (spec 3.4)' };
        }
      }
    }
    return OK;
  },
};
