/**
 * The matching engine's checks on what it is asked to do. Two kinds:
 * - `check*` throw: a malformed request (a VenueInputError, nothing recorded) or an order that
 *   cannot be modified (a VenueOrderError).
 * - `*Refusal` return the reason a well-formed order is refused (the engine records it as FAILED,
 *   or throws it for a modification), or undefined when the order may go on.
 * The messages are the wire's (the simulator's HTTP answers carry them).
 */
import type { Product, Side } from '../../../core/enums.js';
import type { Instrument, InstrumentLookup } from '../../../core/instruments.js';
import { formatRupees, isOnTick, type Paise } from '../../../core/money.js';
import { VenueInputError, VenueOrderError } from './errors.js';
import { TERMINAL, venueStatusOf, type Book, type OrderState } from './order-state.js';
import { freezeLimitMessage, freezeQuantity } from '../../../risk/rules/freeze-quantity.js';
import { priceBandRefusal } from '../../../risk/rules/price-bands.js';
import { istDate } from '../../../core/time.js';

export const SIDES: readonly string[] = ['BUY', 'SELL'];
export const ORDER_TYPES: readonly string[] = ['LIMIT', 'MARKET', 'STOP_LOSS'];
export const SMART_TYPES: readonly string[] = ['LIMIT', 'MARKET', 'TRIGGER'];
export const VALIDITIES: readonly string[] = ['DAY', 'IOC'];
export const PRODUCTS: readonly string[] = ['CNC', 'INTRADAY', 'MARGIN'];

/** Guards the string unions at run time: the server may hand over whatever the wire carried. */
export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new VenueInputError(`${field}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { field, value });
  }
}

/** The instrument `id` names, if it exists and is not an index. */
export function tradable(instruments: InstrumentLookup, id: string): Instrument {
  const i = instruments.get(id);
  if (!i) throw new VenueInputError(`security_id: unknown instrument ${id}`, { instrument: id });
  if (i.segment === 'INDEX' || i.kind === 'INDEX') throw new VenueInputError(`security_id: ${id} is an index and cannot be traded`, { instrument: id });
  return i;
}

export function checkQty(i: Instrument, qty: number, field: string): void {
  if (!Number.isSafeInteger(qty) || qty <= 0) throw new VenueInputError(`${field}: must be a positive whole number, got ${qty}`, { qty });
  if (qty % i.lotSize !== 0) {
    throw new VenueInputError(`${field}: ${qty} is not a multiple of the lot size ${i.lotSize} of ${i.tradingSymbol}`, { qty, lotSize: i.lotSize });
  }
}

export function checkPrice(i: Instrument, p: Paise, field: string): void {
  if (!Number.isSafeInteger(p) || p <= 0) throw new VenueInputError(`${field}: must be a positive price, got ${formatRupees(p)}`, { price: p });
  if (!isOnTick(p, i.tickSize)) {
    throw new VenueInputError(`${field}: ${formatRupees(p)} is not a multiple of the tick size ${formatRupees(i.tickSize)}`, {
      price: p,
      tickSize: i.tickSize,
    });
  }
}

/** A stop-limit's limit must be on the far side of its trigger (BUY: at least, SELL: at most). */
export function checkStopLimit(side: Side, limitPrice: Paise, triggerPrice: Paise): void {
  if (side === 'BUY' ? limitPrice < triggerPrice : limitPrice > triggerPrice) {
    throw new VenueInputError(
      `limit_price: for a ${side} stop-loss order the limit price should be ${side === 'BUY' ? 'at least' : 'at most'} the trigger price ${formatRupees(triggerPrice)}`,
      { limitPrice, triggerPrice },
    );
  }
}

export function checkProduct(i: Instrument, product: Product): void {
  const derivative = i.segment !== 'EQUITY';
  if (derivative && product === 'CNC') throw new VenueInputError(`product: CNC is for equity delivery; ${i.tradingSymbol} is a derivative (use MARGIN or INTRADAY)`, {});
  if (!derivative && product === 'MARGIN') throw new VenueInputError(`product: MARGIN is for derivatives; use CNC or INTRADAY for ${i.tradingSymbol}`, {});
}

export function checkModifiable(o: OrderState, maxModifications: number): void {
  if (TERMINAL.has(o.phase)) {
    throw new VenueOrderError(`Order ${o.orderId} is ${venueStatusOf(o)} and cannot be modified`, { orderId: o.orderId, status: venueStatusOf(o) });
  }
  if (o.modifications >= maxModifications) {
    throw new VenueOrderError(`Order ${o.orderId} has reached the maximum of ${maxModifications} modifications`, {
      orderId: o.orderId,
      modifications: o.modifications,
    });
  }
}

export function circuitRefusal(book: Book, price: Paise | undefined): string | undefined {
  if (price === undefined) return undefined;
  if ((book.upper !== undefined && price > book.upper) || (book.lower !== undefined && price < book.lower)) {
    return `Price ${formatRupees(price)} is outside the circuit limits ${formatRupees(book.lower ?? 0)} - ${formatRupees(book.upper ?? 0)}`;
  }
  return undefined;
}

/** A LIMIT price of an F&O contract outside its execution range around the last price (rules/price-bands.ts). */
export function executionRangeRefusal(i: Instrument, limitPrice: Paise, book: Book, now: number): string | undefined {
  if (i.segment !== 'FNO') return undefined;
  return priceBandRefusal(i, limitPrice, book.ltp, istDate(now));
}

/** An F&O order above its underlying's freeze quantity on the day of `now` (rules/freeze-quantity.ts). */
export function freezeRefusal(i: Instrument, qty: number, now: number): string | undefined {
  if (i.segment !== 'FNO') return undefined;
  const freeze = freezeQuantity(i, istDate(now));
  return freeze !== undefined && qty > freeze ? freezeLimitMessage(i, qty, freeze) : undefined;
}

/**
 * A modified leg of a filled smart order, against the last price: the stop-loss must not be
 * already crossed (as for a regular stop order), and the target must still lie ahead.
 */
export function legMarketRefusal(book: Book, leg: OrderState, trigger: Paise): string | undefined {
  if (leg.leg === 'stopLoss') return stopSideRefusal(book, leg.side, trigger);
  const ltp = book.ltp;
  if (ltp === undefined) return undefined;
  // The target is a SELL above the market for a long, a BUY below it for a short.
  if (leg.side === 'SELL' && !(trigger > ltp)) return `Target trigger price for a SELL order should be greater than the last traded price ${formatRupees(ltp)}`;
  if (leg.side === 'BUY' && !(trigger < ltp)) return `Target trigger price for a BUY order should be less than the last traded price ${formatRupees(ltp)}`;
  return undefined;
}

/** A stop must lie beyond the last price: a BUY stop above it, a SELL stop below it. */
export function stopSideRefusal(book: Book, side: Side, trigger: Paise): string | undefined {
  const ltp = book.ltp;
  if (ltp === undefined) return undefined;
  if (side === 'BUY' && !(trigger > ltp)) return `Trigger price for a BUY stop-loss order should be greater than the last traded price ${formatRupees(ltp)}`;
  if (side === 'SELL' && !(trigger < ltp)) return `Trigger price for a SELL stop-loss order should be less than the last traded price ${formatRupees(ltp)}`;
  return undefined;
}
