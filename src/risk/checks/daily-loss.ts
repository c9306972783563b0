/**
 * Max daily loss: once the day's P&L is at or below -maxDailyLoss (or the kill switch has
 * tripped), nothing that adds exposure passes. Tripping the switch itself (flatten and halt) is
 * the risk engine's job, on every P&L change; this check covers intents in between.
 */
import { DenialCode } from '../../core/events.js';
import { formatInr } from '../../core/money.js';
import { OK, type RiskCheck } from '../types.js';

export const dailyLossCheck: RiskCheck = {
  name: 'dailyLoss',
  check(intent, state) {
    if (intent.kind === 'cancel' || intent.kind === 'exit') return OK;
    const max = state.config.maxDailyLoss;
    const tripped = state.killSwitch();
    if (max === undefined && !tripped) return OK;
    const t = state.terms(intent);
    if (t?.reducing) return OK;
    if (tripped) return { code: DenialCode.DAILY_LOSS, reason: 'the kill switch has tripped: no new exposure until an operator resumes' };
    const pnl = state.dailyPnl();
    if (max !== undefined && pnl <= -max) return { code: DenialCode.DAILY_LOSS, reason: `today's P&L ${formatInr(pnl)} has reached the maximum loss ${formatInr(max)}` };
    return OK;
  },
};
