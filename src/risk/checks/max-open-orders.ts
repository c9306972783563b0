/** At most `maxOpenOrders` working orders account-wide (a smart order counts as one). */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const maxOpenOrdersCheck: RiskCheck = {
  name: 'maxOpenOrders',
  check(intent, state) {
    if (intent.kind !== 'place' && intent.kind !== 'smart') return OK;
    const open = state.openOrderCount();
    const max = state.config.maxOpenOrders;
    if (open >= max) return { code: DenialCode.MAX_OPEN_ORDERS, reason: `${open} orders are working; the maximum is ${max}` };
    return OK;
  },
};
