/**
 * F&O LIMIT prices inside the contract's execution range around its last price
 * (rules/price-bands.ts): the exchange would cancel an order trading outside it and the broker
 * refuses it with the words used here. Stop orders and smart-order legs trade later, against a
 * later reference, and are not checked at entry. No last price: nothing to check against.
 */
import { DenialCode } from '../../core/events.js';
import { istDate } from '../../core/time.js';
import { priceBandRefusal } from '../rules/price-bands.js';
import { OK, type RiskCheck } from '../types.js';

export const priceBandCheck: RiskCheck = {
  name: 'priceBand',
  check(intent, state) {
    let instrument: string;
    let price: number | undefined;
    if (intent.kind === 'place') {
      if (intent.orderType !== 'LIMIT') return OK;
      instrument = intent.instrument;
      price = intent.limitPrice;
    } else if (intent.kind === 'smart') {
      if (intent.entryType !== 'LIMIT') return OK;
      instrument = intent.instrument;
      price = intent.limitPrice;
    } else if (intent.kind === 'modify') {
      if (intent.limitPrice === undefined || (intent.leg !== undefined && intent.leg !== 'entry')) return OK;
      const o = state.order(intent.target);
      if (!o || o.orderType !== 'LIMIT' || (o.leg !== undefined && o.leg !== 'entry')) return OK;
      instrument = o.instrument;
      price = intent.limitPrice;
    } else return OK;
    if (price === undefined) return OK;
    const inst = state.instrument(instrument);
    if (!inst || inst.segment !== 'FNO') return OK;
    const reason = priceBandRefusal(inst, price, state.lastPrice(instrument), istDate(state.now()));
    return reason ? { code: DenialCode.PRICE_BAND, reason } : OK;
  },
};
