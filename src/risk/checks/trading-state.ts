/**
 * The trading-state switch. active: everything passes. reducing: only intents that move the
 * account's position towards zero (and cancels, exits). halted: only cancels and exits (getting
 * out is always allowed; the kill switch flattens through the engine, not through this check).
 */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const tradingStateCheck: RiskCheck = {
  name: 'tradingState',
  check(intent, state) {
    const ts = state.tradingState();
    if (ts === 'active' || intent.kind === 'cancel' || intent.kind === 'exit') return OK;
    if (ts === 'halted') return { code: DenialCode.TRADING_STATE, reason: `trading is halted${state.killSwitch() ? ' by the kill switch' : ''}: only cancels and exits are accepted` };
    const t = state.terms(intent);
    if (t && t.reducing && t.addedQty <= t.qty) return OK;
    return { code: DenialCode.TRADING_STATE, reason: 'trading is reducing-only: this intent would open or increase a position' };
  },
};
