/**
 * The broker accepts at most 25 modifications per order (spec 4.6). Counts are persisted, so a
 * restart does not reset them. The engine never lets a strategy walk into this denial by accident:
 * from `replaceAt` on it turns a modify into cancel-and-replace (or local emulation for a smart
 * leg) before risk sees it; this check is the hard stop for whatever still reaches the cap.
 */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const modificationCapCheck: RiskCheck = {
  name: 'modificationCap',
  check(intent, state) {
    if (intent.kind !== 'modify') return OK;
    const used = state.modifications(intent.target);
    const cap = state.config.maxModifications;
    if (used >= cap) return { code: DenialCode.MODIFICATION_CAP, reason: `order ${intent.target} has had ${used} modifications; the cap is ${cap}` };
    return OK;
  },
};
