/**
 * The intraday cutoff (rules/square-off.ts): from the engine's intraday exit time (else the
 * broker's square-off) until the close, an INTRADAY order that opens or adds to a position is
 * denied with the words the broker refuses it with after its square-off. Reducing orders pass (an
 * exit must always be possible), and so do after-market orders, which are for the next session.
 */
import { SESSION_CLOSE_MINUTE } from '../../core/candles.js';
import { DenialCode } from '../../core/events.js';
import { istMinuteOfDay } from '../../core/time-of-day.js';
import { intradayCutoffMessage, isSquaredOffProduct, opensOrAdds, squareOffSegment } from '../rules/square-off.js';
import { OK, type RiskCheck } from '../types.js';

export const intradayCutoffCheck: RiskCheck = {
  name: 'intradayCutoff',
  check(intent, state) {
    if (intent.kind !== 'place' && intent.kind !== 'smart') return OK;
    if (!isSquaredOffProduct(intent.product) || (intent.kind === 'place' && intent.isAmo)) return OK;
    const inst = state.instrument(intent.instrument);
    const segment = inst && squareOffSegment(inst);
    if (!inst || !segment) return OK;
    const cutoff = state.intradayCutoff(segment);
    if (cutoff === undefined) return OK;
    const minute = istMinuteOfDay(state.now());
    // After the close an order is an after-market order for the next session (as the backtest places them).
    if (minute < cutoff || minute >= SESSION_CLOSE_MINUTE) return OK;
    if (!opensOrAdds(intent.side, intent.qty, state.netQty(intent.instrument))) return OK;
    return { code: DenialCode.INTRADAY_CUTOFF, reason: intradayCutoffMessage(inst, cutoff) };
  },
};
