/**
 * Positions and P&L from fills, in exact paise: one book per strategy and one for the account, per
 * (instrument, product). The single source of truth for positions inside tarang (the venue's own
 * positions are for reconciliation and display).
 *
 * Accounting: `openValue` is the signed cost of the open quantity (long 10 @ 100 = +1000, short =
 * -1000). Adding to a position adds `qty x price`; closing part of it removes the proportional
 * cost (rounded to the paisa; a full close removes exactly what is left, so no residue survives a
 * flat position) and books realized P&L; a fill that crosses zero closes and then opens the rest.
 * Charges on fills are deducted from realized P&L. Unrealized P&L is `netQty x last - openValue`.
 *
 * Daily P&L (for the loss limit) is total P&L minus its value at the first event of the IST day.
 *
 * A derivative held through expiry is closed by the exchange's settlement, not by a fill of ours:
 * `settlementFills` makes the closing fills at the settlement price for every book of the position.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { sideSign, type Product } from '../../core/enums.js';
import type { FillEvent, PositionEvent } from '../../core/events.js';
import type { Paise } from '../../core/money.js';
import { DAY_MS, istDayStart } from '../../core/time.js';
import type { PortfolioView, PositionView } from '../../strategies/strategy.js';
import type { Mutable } from './mutable.js';

interface Book {
  readonly instrument: string;
  readonly product: Product;
  readonly strategyId: string | undefined;
  /** The instrument's last price (shared by every book of the instrument). */
  readonly at: LastPrice;
  netQty: number;
  openValue: Paise;
  realizedPnl: Paise;
  /** Unrealized at the last price, as last added to the running total (account books only). */
  unreal: Paise;
}

/** An instrument's last price; undefined until it is marked or filled. */
interface LastPrice {
  price: Paise | undefined;
}

/** The books of one instrument (one per product traded) and their net quantity over products. */
interface InstrumentBooks {
  readonly books: Book[];
  net: number;
}

/** An instrument as the account sees it: its last price, and its account books. */
interface InstrumentState extends LastPrice, InstrumentBooks {}

/** A strategy's books, in first-traded order, and per instrument. */
interface StrategyBooks {
  readonly books: Map<string, Book>;
  readonly byInstrument: Map<string, InstrumentBooks>;
}

export class Portfolio {
  /** Account books in first-traded order (`instrument|product`): what positions() and books() list. */
  private readonly account = new Map<string, Book>();
  private readonly strategies = new Map<string, StrategyBooks>();
  /**
   * Last price, account books and net quantity per instrument: one lookup per fill or mark finds
   * them all, with no key string built (a backtest books a fill every few dozen candles and marks
   * every candle).
   */
  private readonly instruments = new Map<string, InstrumentState>();
  /** The instrument marked last: a backtest marks the same one candle after candle, with no lookup. */
  private markedInstrument: string | undefined;
  private marked: InstrumentState = { price: undefined, books: [], net: 0 };
  private realizedTotal: Paise = 0;
  private unrealizedTotal: Paise = 0;
  private dayEnd = -Infinity;
  private dayBase: Paise = 0;
  /** Called after every P&L change (the risk engine's loss limit listens). */
  onPnl: () => void = () => undefined;

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
  ) {}

  /** Books a fill (the engine calls this for each `fill` event) and publishes the position changes. */
  applyFill(f: FillEvent): void {
    this.rollDay(f.ts);
    let inst = this.instruments.get(f.instrument);
    if (inst === undefined) this.instruments.set(f.instrument, (inst = { price: f.price, books: [], net: 0 }));
    const acc = productBook(inst, f.product) ?? this.newBook(inst, f.instrument, f.product, undefined);
    const realizedBefore = acc.realizedPnl;
    apply(acc, f);
    this.realizedTotal += acc.realizedPnl - realizedBefore;
    this.revalue(acc);
    let sb = this.strategies.get(f.strategyId);
    if (sb === undefined) this.strategies.set(f.strategyId, (sb = { books: new Map(), byInstrument: new Map() }));
    let si = sb.byInstrument.get(f.instrument);
    if (si === undefined) sb.byInstrument.set(f.instrument, (si = { books: [], net: 0 }));
    const st = productBook(si, f.product) ?? this.newBook(inst, f.instrument, f.product, f.strategyId, si, sb);
    apply(st, f);
    const d = sideSign(f.side) * f.qty;
    inst.net += d;
    si.net += d;
    this.bus.publish(this.event(st, f.ts));
    this.bus.publish(this.event(acc, f.ts));
    this.onPnl();
  }

  /**
   * The fills that close every strategy's open book of (instrument, product) at `price`: how a
   * contract's settlement at expiry is booked. Published like any fill (the engine books them here
   * and hands them to the strategies; the session's figures count them), so nothing reads a
   * position the exchange has closed. `ref` names the settlement: tag `settlement:<ref>`, fill ids
   * `settlement:<ref>:<strategy>`. No charges (a venue's settlement charges show in its funds).
   * Also returns the account's quantity closed and the P&L it realises. Undefined when nothing is open.
   */
  settlementFills(instrument: string, product: Product, price: Paise, ts: number, ref: string): { readonly fills: FillEvent[]; readonly qty: number; readonly realizedPnl: Paise } | undefined {
    const k = key(instrument, product);
    const acc = this.account.get(k);
    if (!acc || acc.netQty === 0) return undefined;
    const fills: FillEvent[] = [];
    for (const [strategyId, sb] of this.strategies) {
      const st = sb.books.get(k);
      if (!st || st.netQty === 0) continue;
      fills.push({ type: 'fill', ts, fillId: `settlement:${ref}:${strategyId}`, tag: `settlement:${ref}`, strategyId, instrument, side: st.netQty > 0 ? 'SELL' : 'BUY', qty: Math.abs(st.netQty), price, product, charges: 0 });
    }
    // A full close realises everything left: long n*P - cost, short the same with n and cost negative.
    return { fills, qty: acc.netQty, realizedPnl: acc.netQty * price - acc.openValue };
  }

  /**
   * A fill of the broker's own order that closes positions it holds for the account (the intraday
   * square-off): split over the strategies whose books of (instrument, product) it reduces, in
   * the order they first traded, each up to its open quantity; charges shared by quantity. Tag
   * `square-off:<orderId>`, fill ids `<fillId>:<strategy>`. `unowned` is what no strategy held
   * (a manual position): the account is closed by it, no strategy's book is.
   */
  squareOffFills(f: { readonly fillId: string; readonly orderId: string; readonly instrument: string; readonly side: 'BUY' | 'SELL'; readonly qty: number; readonly price: Paise; readonly product: Product; readonly charges?: Paise; readonly ts: number }): { readonly fills: FillEvent[]; readonly unowned: number } {
    const k = key(f.instrument, f.product);
    const reduces = f.side === 'SELL' ? 1 : -1;
    const fills: FillEvent[] = [];
    let left = f.qty;
    let chargesLeft = f.charges ?? 0;
    for (const [strategyId, sb] of this.strategies) {
      if (left <= 0) break;
      const st = sb.books.get(k);
      if (!st || Math.sign(st.netQty) !== reduces) continue;
      const qty = Math.min(left, Math.abs(st.netQty));
      left -= qty;
      // The last share takes the remainder, so the parts add up to the venue's charges exactly.
      const charges = left === 0 ? chargesLeft : Math.round(((f.charges ?? 0) * qty) / f.qty);
      chargesLeft -= charges;
      fills.push({ type: 'fill', ts: f.ts, fillId: `${f.fillId}:${strategyId}`, tag: `square-off:${f.orderId}`, strategyId, orderId: f.orderId, instrument: f.instrument, side: f.side, qty, price: f.price, product: f.product, charges });
    }
    return { fills, unowned: left };
  }

  /**
   * The price at which closing the account's open position in (instrument, product) realises
   * `realized` paise: the settlement price a venue applied, read back from the P&L it reports for
   * the settled position (same fills, same cost). Undefined when nothing is open.
   */
  impliedClosePrice(instrument: string, product: Product, realized: Paise): Paise | undefined {
    const acc = this.account.get(key(instrument, product));
    if (!acc || acc.netQty === 0) return undefined;
    // Long n closed at P: n*P - cost; short: the same with n and cost negative.
    const price = Math.round((realized + acc.openValue) / acc.netQty);
    return price === 0 ? 0 : price; // not -0 (a short expiring worthless)
  }

  /** Marks an instrument to a new price (ticks, candle closes). */
  mark(instrument: string, price: Paise, ts: number): void {
    let inst: InstrumentState | undefined;
    if (instrument === this.markedInstrument) inst = this.marked;
    else {
      inst = this.instruments.get(instrument);
      if (inst === undefined) this.instruments.set(instrument, (inst = { price: undefined, books: [], net: 0 }));
      this.markedInstrument = instrument;
      this.marked = inst;
    }
    if (inst.price === price) return;
    inst.price = price;
    const books = inst.books;
    if (books.length === 0) return;
    this.rollDay(ts);
    let changed = false;
    for (let i = 0; i < books.length; i++) {
      const b = books[i]!;
      if (b.netQty !== 0) {
        this.revalue(b);
        changed = true;
      }
    }
    if (changed) this.onPnl();
  }

  lastPrice(instrument: string): Paise | undefined {
    return this.instruments.get(instrument)?.price;
  }

  /** Net quantity over products, account-wide or of one strategy. */
  netQty(instrument: string, strategyId?: string): number {
    if (strategyId === undefined) return this.instruments.get(instrument)?.net ?? 0;
    return this.strategies.get(strategyId)?.byInstrument.get(instrument)?.net ?? 0;
  }

  totalPnl(): Paise {
    return this.realizedTotal + this.unrealizedTotal;
  }

  realizedPnl(): Paise {
    return this.realizedTotal;
  }

  unrealizedPnl(): Paise {
    return this.unrealizedTotal;
  }

  dailyPnl(): Paise {
    this.rollDay(this.clock.now());
    return this.totalPnl() - this.dayBase;
  }

  /** Strategies that have traded. */
  strategyIds(): string[] {
    return [...this.strategies.keys()];
  }

  /** Open positions (non-zero), account-wide or of one strategy. */
  positions(strategyId?: string): PositionView[] {
    const map = strategyId === undefined ? this.account : this.strategies.get(strategyId)?.books;
    return map ? [...map.values()].filter((b) => b.netQty !== 0).map((b) => this.view(b)) : [];
  }

  /**
   * A strategy's open books of one instrument, first traded first (what `positions(strategyId)`
   * lists for it): an exit closes each. Found through the instrument, not by listing every
   * position: the session-end exit of n positions would otherwise cost n x n.
   */
  openBooksOf(strategyId: string, instrument: string, product?: Product): PositionView[] {
    const si = this.strategies.get(strategyId)?.byInstrument.get(instrument);
    const out: PositionView[] = [];
    if (si === undefined) return out;
    for (const b of si.books) if (b.netQty !== 0 && (product === undefined || b.product === product)) out.push(this.view(b));
    return out;
  }

  /** Every book with activity (including flat ones with realized P&L). */
  books(strategyId?: string): PositionView[] {
    const map = strategyId === undefined ? this.account : this.strategies.get(strategyId)?.books;
    return map ? [...map.values()].map((b) => this.view(b)) : [];
  }

  /** A strategy's read-only window on this portfolio. */
  viewFor(strategyId: string): PortfolioView {
    return {
      netQty: (i) => this.netQty(i, strategyId),
      position: (i, product) => {
        // Through the instrument's books, as fills and openBooksOf find them: no key string per call.
        const si = this.strategies.get(strategyId)?.byInstrument.get(i);
        if (si === undefined) return undefined;
        if (product) {
          const b = productBook(si, product);
          return b ? this.view(b) : undefined;
        }
        const bs = PRODUCTS.map((p) => productBook(si, p)).filter((b): b is Book => b !== undefined);
        if (bs.length === 0) return undefined;
        if (bs.length === 1) return this.view(bs[0]!);
        return merge(bs.map((b) => this.view(b)));
      },
      positions: () => this.positions(strategyId),
      pnl: () => {
        let p = 0;
        for (const b of this.strategies.get(strategyId)?.books.values() ?? []) p += b.realizedPnl + (this.unrealOf(b) ?? 0);
        return p;
      },
      lastPrice: (i) => this.lastPrice(i),
    };
  }

  private view(b: Book): PositionView {
    return {
      instrument: b.instrument,
      product: b.product,
      netQty: b.netQty,
      openValue: b.openValue,
      realizedPnl: b.realizedPnl,
      unrealizedPnl: this.unrealOf(b),
    };
  }

  private unrealOf(b: Book): Paise | undefined {
    if (b.netQty === 0) return 0;
    const px = b.at.price;
    return px === undefined ? undefined : b.netQty * px - b.openValue;
  }

  private revalue(acc: Book): void {
    const u = this.unrealOf(acc) ?? 0;
    this.unrealizedTotal += u - acc.unreal;
    acc.unreal = u;
  }

  private event(b: Book, ts: number): PositionEvent {
    const u = this.unrealOf(b);
    // Field by field (no conditional spreads): two of these per fill.
    const e: Mutable<PositionEvent> = {
      type: 'position',
      ts,
      instrument: b.instrument,
      product: b.product,
      netQty: b.netQty,
      openValue: b.openValue,
      realizedPnl: b.realizedPnl,
    };
    if (u !== undefined) e.unrealizedPnl = u;
    if (b.strategyId !== undefined) e.strategyId = b.strategyId;
    return e;
  }

  /**
   * A new book of (instrument, product): the account's (`strategyId` undefined) or a strategy's,
   * listed under its instrument and, in first-traded order, under its key.
   */
  private newBook(inst: InstrumentState, instrument: string, product: Product, strategyId: string | undefined, si?: InstrumentBooks, sb?: StrategyBooks): Book {
    const b: Book = { instrument, product, strategyId, at: inst, netQty: 0, openValue: 0, realizedPnl: 0, unreal: 0 };
    if (strategyId === undefined) {
      inst.books.push(b);
      this.account.set(key(instrument, product), b);
    } else {
      si!.books.push(b);
      sb!.books.set(key(instrument, product), b);
    }
    return b;
  }

  private rollDay(ts: number): void {
    if (ts < this.dayEnd) return;
    this.dayEnd = istDayStart(ts) + DAY_MS;
    this.dayBase = this.totalPnl();
  }
}

const PRODUCTS: readonly Product[] = ['CNC', 'INTRADAY', 'MARGIN'];

function key(instrument: string, product: Product): string {
  return `${instrument}|${product}`;
}

/** The book of one product among an instrument's (at most one per product, so a short scan). */
function productBook(books: InstrumentBooks, product: Product): Book | undefined {
  const list = books.books;
  for (let i = 0; i < list.length; i++) if (list[i]!.product === product) return list[i];
  return undefined;
}

function apply(b: Book, f: Pick<FillEvent, 'side' | 'qty' | 'price' | 'charges'>): void {
  const s = sideSign(f.side);
  let q = f.qty;
  if (b.netQty !== 0 && Math.sign(b.netQty) !== s) {
    const closeQty = Math.min(q, Math.abs(b.netQty));
    const removed = closeQty === Math.abs(b.netQty) ? b.openValue : Math.round((b.openValue * closeQty) / Math.abs(b.netQty));
    b.realizedPnl += -s * closeQty * f.price - removed;
    b.openValue -= removed;
    b.netQty += s * closeQty;
    q -= closeQty;
  }
  if (q > 0) {
    b.openValue += s * q * f.price;
    b.netQty += s * q;
  }
  if (b.netQty === 0) b.openValue = 0;
  if (f.charges) b.realizedPnl -= f.charges;
}

function merge(vs: PositionView[]): PositionView {
  const first = vs[0]!;
  let net = 0;
  let open = 0;
  let real = 0;
  let unreal: number | undefined = 0;
  for (const v of vs) {
    net += v.netQty;
    open += v.openValue;
    real += v.realizedPnl;
    unreal = unreal === undefined || v.unrealizedPnl === undefined ? undefined : unreal + v.unrealizedPnl;
  }
  return { instrument: first.instrument, product: first.product, netQty: net, openValue: open, realizedPnl: real, unrealizedPnl: unreal };
}
