/**
 * Sessions and expiry, over the engine's `MatchingState`.
 *
 * - `openSession`: on a new IST date the account rolls its day and the order book starts afresh
 *   (still-working orders stay); queued AMO orders start working and take the first price after
 *   the open.
 * - `expireSession`: working DAY/IOC orders expire, smart orders past their TTL expire, and the
 *   underlying's close is taken for contracts expiring today.
 *
 * Expiry (cash settlement, as NSE settles index derivatives): at `expireSession` of a contract's
 * expiry date the underlying's price S is taken (`underlyingClose`); at the first `openSession` of
 * a later date, after the day roll, every open position in a contract past its expiry is closed at
 * its settlement price (future: S; call: max(0, S - K); put: max(0, K - S)) as the day's trade
 * that closes it (`settlements()`, a `position` event), and orders still working in it expire.
 */
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import type { MatchingState } from './matching-state.js';
import { Phase, TERMINAL } from './order-state.js';
import { smartLive } from './smart-orders.js';
import { SmartStatus } from './venue-status.js';

const CONTRACT_EXPIRED = 'Contract expired';

/** Opens the session at `ts` (see the file comment). */
export function openSession(st: MatchingState, ts: number): void {
  const date = istDate(ts);
  if (st.sessionDate !== undefined && date !== st.sessionDate) {
    st.account.rollDay();
    // The order book is per day (as on the live service): finished orders and smart orders are
    // forgotten, so a long backtest holds only what is still working.
    for (const o of st.dayOrders) if (TERMINAL.has(o.phase) && !(o.smart && smartLive(o.smart))) st.orderMap.delete(o.orderId);
    for (const [id, sm] of st.smartMap) if (!smartLive(sm)) st.smartMap.delete(id);
    st.dayOrders = st.dayOrders.filter((o) => st.orderMap.has(o.orderId) && !TERMINAL.has(o.phase));
    st.dayTrades = [];
    st.tradesByOrder.clear();
    st.daySettlements = [];
    settleExpired(st, date, ts);
    // Contracts past their expiry leave the book (a paper session running for weeks would
    // otherwise keep every weekly it ever touched); one with a working order stays until it ends.
    for (const [id, book] of st.books) {
      const expiry = book.instrument.expiry;
      if (expiry !== undefined && expiry < date && book.working.length === 0) st.dropBook(id);
    }
  }
  st.sessionDate = date;
  st.sessionOpen = true;
  st.squaredOff.clear();
  const amos = st.amoQueue;
  st.amoQueue = [];
  for (const o of amos) {
    if (o.phase !== Phase.QUEUED) continue;
    if (o.instrument.expiry !== undefined && o.instrument.expiry < date) {
      st.finish(o, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
      continue;
    }
    o.phase = o.requestedOrderType === 'STOP_LOSS' ? Phase.TRIGGER : Phase.WORKING;
    o.fresh = true;
    o.updatedAt = ts;
    st.book(o.instrument).working.push(o);
    st.emitOrder(o, ts);
  }
  st.flush();
}

/**
 * Closes the session at `ts`: every working DAY order expires (`EXPIRED`, or `PARTIALLY FILLED -
 * EXPIRED`) and its margin is released. Smart orders survive until they are 365 days old. AMO
 * orders placed for the next session stay queued.
 */
export function expireSession(st: MatchingState, ts: number): void {
  for (const book of st.books.values()) {
    for (const o of [...book.working]) {
      if (o.smart) continue;
      if (o.validity === 'DAY' || o.validity === 'IOC') st.finish(o, Phase.EXPIRED, 'Order expired at the session close', ts);
    }
  }
  for (const smart of st.smartMap.values()) {
    if (ts < smart.expiresAt) continue;
    if (smart.status !== SmartStatus.CREATED && smart.status !== SmartStatus.ACTIVE) continue;
    for (const o of [smart.entry, smart.stopLoss, smart.target]) {
      if (o && !TERMINAL.has(o.phase)) st.finish(o, Phase.EXPIRED, 'Smart order expired', ts);
    }
    smart.status = SmartStatus.EXPIRED;
    st.emitSmart(smart, ts);
  }
  takeExpiryCloses(st, st.sessionDate ?? istDate(ts));
  st.sessionOpen = false;
  st.flush();
}

/** S of every open position's contract expiring on `date` (or before, not yet taken), at this close. */
function takeExpiryCloses(st: MatchingState, date: string): void {
  const ask = st.underlyingClose;
  if (!ask) return;
  for (const { instrument } of st.account.derivativePositions()) {
    const expiry = instrument.expiry!;
    // On the expiry date the latest close wins (a session reopened that day closes again).
    if (expiry > date || (expiry < date && st.expiryCloses.has(instrument.id))) continue;
    const s = ask(instrument);
    if (s !== undefined && Number.isFinite(s) && s > 0) st.expiryCloses.set(instrument.id, Math.round(s));
  }
}

/**
 * First open of `date`, after the day roll: orders still working in contracts past their expiry
 * expire (no more prices will come for them), and open positions in them are closed at their
 * settlement price, realising P&L and releasing margin.
 */
function settleExpired(st: MatchingState, date: string, ts: number): void {
  for (const book of st.books.values()) {
    const expiry = book.instrument.expiry;
    if (expiry === undefined || expiry >= date || book.working.length === 0) continue;
    for (const o of [...book.working]) {
      if (TERMINAL.has(o.phase)) continue;
      const smart = o.smart;
      if (!smart) {
        st.finish(o, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
        continue;
      }
      for (const x of [smart.entry, smart.stopLoss, smart.target]) if (x && !TERMINAL.has(x.phase)) st.finish(x, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
      smart.status = SmartStatus.EXPIRED;
      st.emitSmart(smart, ts);
    }
  }
  for (const { instrument, product } of st.account.derivativePositions()) {
    const expiry = instrument.expiry!;
    if (expiry >= date) continue;
    const s = st.expiryCloses.get(instrument.id);
    const own = st.bookOf(instrument.id)?.ltp ?? st.account.position(instrument.id, product)?.lastPrice ?? 0;
    const price = s === undefined ? own : settlementValue(instrument, s);
    const done = st.account.settle(instrument, product, price);
    if (!done) continue;
    st.daySettlements.push({
      instrument: instrument.id,
      securityId: instrument.securityId,
      tradingSymbol: instrument.tradingSymbol,
      product,
      expiry,
      side: done.side,
      qty: done.qty,
      settlementPrice: price,
      ...(s !== undefined ? { underlyingPrice: s } : {}),
      basis: s === undefined ? 'contract-last-price' : 'underlying-close',
      realizedPnl: done.realizedPnl,
      charges: done.charges.brokerage + done.charges.totalCharges,
      ts,
    });
    if (st.listeners.length > 0) st.queue.push({ type: 'position', ts, position: done.position });
  }
  st.expiryCloses.clear();
}

/** Settlement price per unit off the underlying's S: a future at S, an option at its intrinsic value. */
function settlementValue(i: Instrument, s: Paise): Paise {
  const k = i.strike;
  if (k === undefined || (i.optionType !== 'CE' && i.optionType !== 'PE')) return s;
  return Math.max(0, i.optionType === 'CE' ? s - k : k - s);
}
