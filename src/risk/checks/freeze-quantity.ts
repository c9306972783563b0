/**
 * F&O quantities within the underlying's freeze quantity of the day (rules/freeze-quantity.ts):
 * above it the broker rejects the order with the words used here. With `execution.autoSlice` a
 * regular order passes when it can be sliced into at most `maxSlices` orders (execution slices
 * it); smart orders and modifications are never sliced, so they must fit in one order.
 */
import { DenialCode } from '../../core/events.js';
import { istDate } from '../../core/time.js';
import { freezeLimitMessage, freezeQuantity, freezeRules, sliceQuantities, tooManySlicesMessage } from '../rules/freeze-quantity.js';
import { OK, type RiskCheck } from '../types.js';

export const freezeQtyCheck: RiskCheck = {
  name: 'freezeQty',
  check(intent, state) {
    let instrument: string;
    let qty: number;
    if (intent.kind === 'place' || intent.kind === 'smart') {
      instrument = intent.instrument;
      qty = intent.qty;
    } else if (intent.kind === 'modify') {
      const o = state.order(intent.target);
      if (!o || intent.qty === undefined || intent.qty === o.qty) return OK;
      instrument = o.instrument;
      qty = intent.qty;
    } else return OK;
    const inst = state.instrument(instrument);
    if (!inst || inst.segment !== 'FNO') return OK;
    const rules = freezeRules();
    const freeze = freezeQuantity(inst, istDate(state.now()), rules);
    if (freeze === undefined || qty <= freeze) return OK;
    if (intent.kind === 'place' && state.autoSlice) {
      if (sliceQuantities(qty, freeze, inst.lotSize, rules.maxSlices)) return OK;
      return { code: DenialCode.FREEZE_QTY, reason: tooManySlicesMessage(inst, qty, freeze, inst.lotSize, rules.maxSlices) };
    }
    return { code: DenialCode.FREEZE_QTY, reason: freezeLimitMessage(inst, qty, freeze) };
  },
};
