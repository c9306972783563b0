/** Quantities are whole multiples of the instrument's lot size (units, not lots). */
import { DenialCode } from '../../core/events.js';
import { OK, type RiskCheck } from '../types.js';

export const lotSizeCheck: RiskCheck = {
  name: 'lotSize',
  check(intent, state) {
    let instrument: string;
    let qty: number | undefined;
    if (intent.kind === 'place' || intent.kind === 'smart') {
      instrument = intent.instrument;
      qty = intent.qty;
    } else if (intent.kind === 'modify') {
      const o = state.order(intent.target);
      if (!o || intent.qty === undefined) return OK;
      instrument = o.instrument;
      qty = intent.qty;
    } else return OK;
    const lot = state.instrument(instrument)?.lotSize ?? 1;
    if (qty % lot !== 0) return { code: DenialCode.LOT_SIZE, reason: `qty ${qty} is not a multiple of the lot size ${lot} of ${instrument}` };
    return OK;
  },
};
