/** Every price of the intent (limit, trigger, smart legs) is a whole number of ticks. */
import { DenialCode } from '../../core/events.js';
import { formatInr, type Paise } from '../../core/money.js';
import { OK, type CheckResult, type RiskCheck } from '../types.js';

export const tickSizeCheck: RiskCheck = {
  name: 'tickSize',
  check(intent, state) {
    const p = state.prices(intent);
    if (!p) return OK;
    const tick = state.instrument(p.instrument)?.tickSize;
    if (!tick) return OK;
    for (const [name, price] of p.prices) {
      const r = onTick(name, price, tick);
      if (r) return r;
    }
    return OK;
  },
};

function onTick(name: string, price: Paise, tick: Paise): CheckResult {
  if (Number.isSafeInteger(price) && price > 0 && price % tick === 0) return OK;
  return { code: DenialCode.TICK_SIZE, reason: `${name} ${formatInr(price)} is not a positive multiple of the tick size ${formatInr(tick)}` };
}
