/**
 * What an intent would do to the market, in one shape for the checks: instrument, side, quantity,
 * the price it would trade at (limit, trigger, or last price for market orders) and whether it
 * only reduces an open position. Cancels have no terms.
 */
import type { Side } from '../core/enums.js';
import { sideSign } from '../core/enums.js';
import type { Intent } from '../core/intents.js';
import type { Paise } from '../core/money.js';
import type { RiskState } from './types.js';
import { smartEntryPrice } from './rules/smart-leg-bounds.js';
import { protectionPrice } from './rules/market-protection.js';

export interface OrderTerms {
  readonly instrument: string;
  readonly side: Side;
  /** Quantity after the intent (a modify's new quantity, or the order's). */
  readonly qty: number;
  /** Quantity the intent adds to the market (a modify: the increase only). */
  readonly addedQty: number;
  /** Price used for value and margin; undefined when nothing is known (no price yet). */
  readonly price: Paise | undefined;
  /** Whether executing it can only move the account's position towards zero. */
  readonly reducing: boolean;
}

export function orderTerms(intent: Intent, state: RiskState): OrderTerms | undefined {
  switch (intent.kind) {
    case 'place': {
      const price = intent.limitPrice ?? intent.triggerPrice ?? marketPrice(intent.instrument, intent.side, intent.orderType, state);
      return terms(intent.instrument, intent.side, intent.qty, intent.qty, price, state);
    }
    case 'smart': {
      const price =
        smartEntryPrice(intent.entryType, {
          limitPrice: intent.limitPrice,
          triggerPrice: intent.triggerPrice,
          triggerLimitPrice: intent.triggerLimitPrice,
          lastPrice: state.lastPrice(intent.instrument),
        }) ?? state.lastPrice(intent.instrument);
      return terms(intent.instrument, intent.side, intent.qty, intent.qty, price, state);
    }
    case 'modify': {
      const o = state.order(intent.target);
      if (!o) return undefined;
      const qty = intent.qty ?? o.qty;
      const price = intent.limitPrice ?? intent.triggerPrice ?? o.limitPrice ?? o.triggerPrice ?? state.lastPrice(o.instrument);
      return terms(o.instrument, o.side, qty - o.filledQty, Math.max(0, qty - o.qty), price, state, o.qty - o.filledQty);
    }
    case 'exit': {
      const net = state.netQty(intent.instrument, intent.strategyId);
      const side: Side = net >= 0 ? 'SELL' : 'BUY';
      return { instrument: intent.instrument, side, qty: Math.abs(net), addedQty: Math.abs(net), price: state.lastPrice(intent.instrument), reducing: true };
    }
    case 'cancel':
      return undefined;
  }
}

/**
 * A MARKET order is valued where the broker will limit it (market protection): the last price
 * +/- `marketProtectionPct`, within the band. Other order types without a price: the last price.
 */
function marketPrice(instrument: string, side: Side, orderType: string, state: RiskState): Paise | undefined {
  const ltp = state.lastPrice(instrument);
  const inst = state.instrument(instrument);
  if (ltp === undefined || orderType !== 'MARKET' || !inst) return ltp;
  const band = state.circuit(instrument);
  return protectionPrice(side, ltp, state.config.marketProtectionPct, inst.tickSize, band?.upper, band?.lower);
}

function terms(instrument: string, side: Side, qty: number, addedQty: number, price: Paise | undefined, state: RiskState, ownWorking = 0): OrderTerms {
  const net = state.netQty(instrument);
  // Reducing: opposite to the account's position and not beyond it, counting same-side working orders.
  const pending = state.workingQty(instrument, side) - ownWorking;
  const reducing = net !== 0 && Math.sign(net) === -sideSign(side) && qty + pending <= Math.abs(net);
  return { instrument, side, qty, addedQty, price, reducing };
}
