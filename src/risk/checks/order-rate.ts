/**
 * A runaway guard: at most `orderRate.max` order writes (place, smart, modify) per strategy in any
 * `orderRate.windowMs`. Cancels and exits are never rate-denied (getting out must always work).
 */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const orderRateCheck: RiskCheck = {
  name: 'orderRate',
  check(intent, state) {
    if (intent.kind === 'cancel' || intent.kind === 'exit') return OK;
    const { max, windowMs } = state.config.orderRate;
    const n = state.recentWrites(intent.strategyId, windowMs);
    if (n >= max) return { code: DenialCode.ORDER_RATE, reason: `strategy ${intent.strategyId} made ${n} order writes in the last ${windowMs} ms; the maximum is ${max}` };
    return OK;
  },
};
