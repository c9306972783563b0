/** Prices inside the instrument's circuit band, when the band is known (quotes, the venue). */
import { DenialCode } from '../../core/events.js';
import { formatInr } from '../../core/money.js';
import { OK, type RiskCheck } from '../types.js';

export const circuitCheck: RiskCheck = {
  name: 'circuit',
  check(intent, state) {
    const p = state.prices(intent);
    if (!p) return OK;
    const band = state.circuit(p.instrument);
    if (!band) return OK;
    for (const [name, price] of p.prices) {
      if (name === 'trailingStep') continue; // a distance, not a price level
      if (price < band.lower || price > band.upper) {
        return { code: DenialCode.CIRCUIT_LIMIT, reason: `${name} ${formatInr(price)} is outside the circuit band ${formatInr(band.lower)}-${formatInr(band.upper)} of ${p.instrument}` };
      }
    }
    return OK;
  },
};
