/** One order's value (qty x price) at most `maxOrderValue` paise. */
import { DenialCode } from '../../core/events.js';
import { formatInr } from '../../core/money.js';
import { OK, type RiskCheck } from '../types.js';

export const maxOrderValueCheck: RiskCheck = {
  name: 'maxOrderValue',
  check(intent, state) {
    const max = state.config.maxOrderValue;
    if (max === undefined) return OK;
    const t = state.terms(intent);
    if (!t || t.reducing) return OK;
    if (t.price === undefined) return { code: DenialCode.MAX_ORDER_VALUE, reason: `no price known for ${t.instrument} to value the order` };
    const value = t.qty * t.price;
    if (value > max) return { code: DenialCode.MAX_ORDER_VALUE, reason: `order value ${formatInr(value)} exceeds the maximum ${formatInr(max)}` };
    return OK;
  },
};
