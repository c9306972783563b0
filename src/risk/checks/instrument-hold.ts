/**
 * Instrument holds: no new entry in an instrument while tarang's view of it may be wrong — an
 * order's fills are still being read (the venue says filled, the position does not show it yet),
 * or the position differs from the broker's after a reconcile. A strategy that re-checks its
 * position now would see it short of the truth and trade again.
 *
 * What passes: cancels; a modify that adds no quantity; a place or smart order that reduces the
 * position both as tarang counts it (reported fills included, see RiskState.netQty) and, when a
 * mismatch is known, as the broker has it. An exit is held too: its size comes from the booked
 * position, which is the thing in doubt (it goes through once the view is right again).
 */
import { sideSign } from '../../core/enums.js';
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const instrumentHoldCheck: RiskCheck = {
  name: 'instrumentHold',
  check(intent, state) {
    if (intent.kind === 'cancel') return OK;
    const instrument = intent.kind === 'exit' ? intent.instrument : state.terms(intent)?.instrument;
    if (instrument === undefined) return OK;
    const hold = state.entryHold(instrument);
    if (hold === undefined) return OK;
    const denied = { code: DenialCode.INSTRUMENT_HELD, reason: `no new entry in ${instrument} for now: ${hold.reason}` };
    if (intent.kind === 'exit') return { code: DenialCode.INSTRUMENT_HELD, reason: `no exit in ${instrument} for now (its size would come from a position in doubt): ${hold.reason}` };
    const t = state.terms(intent)!;
    if (intent.kind === 'modify') return t.addedQty === 0 ? OK : denied;
    if (!t.reducing) return denied;
    const b = hold.brokerNet;
    if (b !== undefined && !(b !== 0 && Math.sign(b) === -sideSign(t.side) && t.qty + state.workingQty(instrument, t.side) <= Math.abs(b))) return denied;
    return OK;
  },
};
