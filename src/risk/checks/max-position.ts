/**
 * The account's position in an instrument, counting working orders on the same side, stays within
 * `maxPositionQty` units and `maxPositionValue` paise.
 */
import { DenialCode, } from '../../core/events.js';
import { sideSign } from '../../core/enums.js';
import { formatInr } from '../../core/money.js';
import { OK, type RiskCheck } from '../types.js';

export const maxPositionCheck: RiskCheck = {
  name: 'maxPosition',
  check(intent, state) {
    const { maxPositionQty, maxPositionValue } = state.config;
    if (maxPositionQty === undefined && maxPositionValue === undefined) return OK;
    const t = state.terms(intent);
    if (!t || t.reducing || t.addedQty === 0) return OK;
    const projected = Math.abs(state.netQty(t.instrument) + sideSign(t.side) * (state.workingQty(t.instrument, t.side) + t.addedQty));
    if (maxPositionQty !== undefined && projected > maxPositionQty) {
      return { code: DenialCode.MAX_POSITION, reason: `position in ${t.instrument} would reach ${projected} (with working orders); the maximum is ${maxPositionQty}` };
    }
    if (maxPositionValue !== undefined) {
      if (t.price === undefined) return { code: DenialCode.MAX_POSITION, reason: `no price known for ${t.instrument} to value the position` };
      const value = projected * t.price;
      if (value > maxPositionValue) {
        return { code: DenialCode.MAX_POSITION, reason: `position in ${t.instrument} would be worth ${formatInr(value)}; the maximum is ${formatInr(maxPositionValue)}` };
      }
    }
    return OK;
  },
};
