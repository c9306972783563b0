/**
 * Margin/funds: the margin an order needs (local `MarginModel` estimate; the part that reduces an
 * open position needs none) must fit in the funds available (the venue's last figure minus what
 * our working orders have reserved since). Unknown funds: passes (the venue will say); unknown
 * price: denied, since the need cannot be estimated.
 */
import { DenialCode } from '../../core/events.js';
import { sideSign } from '../../core/enums.js';
import { formatInr } from '../../core/money.js';
import { OK, type RiskCheck } from '../types.js';

export const fundsCheck: RiskCheck = {
  name: 'funds',
  check(intent, state) {
    if (intent.kind === 'cancel' || intent.kind === 'exit') return OK;
    const t = state.terms(intent);
    if (!t || t.reducing || t.addedQty === 0) return OK;
    const available = state.availableFunds();
    if (available === undefined) return OK;
    const inst = state.instrument(t.instrument);
    if (!inst) return OK;
    if (t.price === undefined) return { code: DenialCode.INSUFFICIENT_FUNDS, reason: `no price known for ${t.instrument} to estimate the margin` };
    // Only the part beyond the opposite open position opens exposure.
    const net = state.netQty(t.instrument);
    const offset = Math.sign(net) === -sideSign(t.side) ? Math.abs(net) : 0;
    const opening = Math.max(0, t.addedQty - offset);
    const product = intent.kind === 'modify' ? (state.order(intent.target)?.product ?? 'INTRADAY') : intent.product;
    const need = state.margin.required(inst, t.side, opening, t.price, product).total;
    if (need > available) {
      return { code: DenialCode.INSUFFICIENT_FUNDS, reason: `needs margin ${formatInr(need)}, available ${formatInr(available)}` };
    }
    return OK;
  },
};
