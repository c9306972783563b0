/**
 * The venue's account: cash ledger, blocked margin, positions per (instrument, product) and
 * equity holdings, all in integer paise. The matching engine books every fill here; the server
 * reads funds/positions/holdings/margin from it; the backtester reads its equity.
 *
 * Ledger model (documented so numbers can be checked by hand):
 * - `ledger = sod_balance + funds_added - funds_withdrawn + realized_pnl - brokerage - charges`.
 * - `used = margin of open positions (at their average price) + margin blocked by open orders`.
 *   A CNC or option-buy position's margin is its cost, so buying spends cash and selling returns it
 *   with the realised P&L.
 * - `available = ledger - used`. Unrealised P&L is reported but does not change `available`.
 * - Average-cost accounting: closing part of a position removes the same share of its cost.
 * - `rollDay()` (the engine calls it at the first session open of a new IST date) moves the
 *   ledger into `sod_balance`, clears the day's figures, and settles T1 holdings into DP.
 * - `settle()` (the engine calls it after `rollDay()` at the first session after a contract's
 *   expiry) closes a derivative position at its settlement price like a trade of that day.
 *
 * Just over 500 lines on purpose: one ledger whose figures (cash, margin, positions, holdings,
 * charges) each depend on the others at every fill; split, the parts would share its private maps.
 */
import type { Product, Side } from '../../../core/enums.js';
import type { Instrument, InstrumentLookup } from '../../../core/instruments.js';
import { formatRupees, type Paise } from '../../../core/money.js';
import { InvariantError } from '../../../core/errors.js';
import { indianCharges, indianSettlementCharges, noCharges, type ChargeCalculator } from './charges.js';
import { MarginModel, type MarginModelOptions, type MarginParts } from '../../../risk/margin-model.js';
import { holdingSnapshot, key, positionSnapshot, unrealized, type HoldingState, type OrderBlock, type PositionState } from './account-state.js';
import type { ChargeBreakdown, MarginQuery, SimFunds, SimHolding, SimMarginResult, SimPosition } from './types.js';

export interface VenueAccountOptions {
  readonly instruments: InstrumentLookup;
  /** Start-of-day cash, paise. Default 10,00,000 rupees. */
  readonly openingBalance?: Paise;
  readonly margin?: MarginModelOptions;
  /** The venue's time, for margin that depends on the day (expiry-day exposure margin). */
  readonly now?: () => number;
  /** Default: `indianCharges()`. Use `noCharges` for cost-free runs. */
  readonly charges?: ChargeCalculator;
  /**
   * Charges on a position settled at expiry (see `indianSettlementCharges`). Default: the Indian
   * settlement charges when `charges` is not given either, none when it is (a run that set its own
   * charges, e.g. `noCharges`, is not charged behind its back).
   */
  readonly settlementCharges?: ChargeCalculator;
}

/** A position closed by its contract's settlement at expiry. */
export interface SettledPosition {
  /** The side of the trade the settlement stands for: SELL closes a long, BUY a short. */
  readonly side: Side;
  readonly qty: number;
  /** Realised by the settlement, before its charges, paise. */
  readonly realizedPnl: Paise;
  readonly charges: ChargeBreakdown;
  /** The position after it (flat). */
  readonly position: SimPosition;
}

/** Outcome of blocking margin for an order. */
export type Reservation = { readonly ok: true; readonly margin: Paise } | { readonly ok: false; readonly reason: string };

const DEFAULT_OPENING_BALANCE: Paise = 100_000_000;

export class VenueAccount {
  readonly marginModel: MarginModel;
  private readonly instruments: InstrumentLookup;
  private readonly charges: ChargeCalculator;
  private readonly settlementCharges: ChargeCalculator;
  private sodBalance: Paise;
  private fundsAdded: Paise = 0;
  private fundsWithdrawn: Paise = 0;
  private realized: Paise = 0;
  /** Positions whose net quantity is not zero. */
  private openCount = 0;
  private brokerage: Paise = 0;
  private eqCharges: Paise = 0;
  private fnoCharges: Paise = 0;
  private usedByPositions: Paise = 0;
  private usedByOrders: Paise = 0;
  private readonly positionMap = new Map<string, PositionState>();
  private readonly byInstrument = new Map<string, PositionState[]>();
  private readonly holdingMap = new Map<string, HoldingState>();
  private readonly blocks = new Map<string, OrderBlock>();

  constructor(options: VenueAccountOptions) {
    const opening = options.openingBalance ?? DEFAULT_OPENING_BALANCE;
    if (!Number.isSafeInteger(opening) || opening < 0) {
      throw new RangeError(`VenueAccount: openingBalance must be a non-negative whole number of paise, got ${opening}`);
    }
    this.instruments = options.instruments;
    this.sodBalance = opening;
    this.marginModel = new MarginModel(options.margin, options.now);
    this.charges = options.charges ?? indianCharges();
    this.settlementCharges = options.settlementCharges ?? (options.charges === undefined ? indianSettlementCharges() : noCharges);
  }

  // ------------------------------------------------------------------------------------------
  // Reads

  /** Cash after realised P&L and charges, before margin. */
  ledger(): Paise {
    return this.sodBalance + this.fundsAdded - this.fundsWithdrawn + this.realized - this.brokerage - this.eqCharges - this.fnoCharges;
  }

  usedMargin(): Paise {
    return this.usedByPositions + this.usedByOrders;
  }

  available(): Paise {
    return this.ledger() - this.usedMargin();
  }

  /** The day's realised P&L (before charges). */
  realizedPnl(): Paise {
    return this.realized;
  }

  unrealizedPnl(): Paise {
    let u = 0;
    for (const p of this.positionMap.values()) u += unrealized(p);
    return u;
  }

  /**
   * The account's worth at last prices. A position's cost sits in `used`, not out of the ledger,
   * so cash plus positions at market is simply ledger + unrealised P&L.
   */
  equity(): Paise {
    let worth = this.ledger();
    for (const p of this.positionMap.values()) worth += unrealized(p);
    return worth;
  }

  funds(): SimFunds {
    const available = this.available();
    const free = Math.max(0, available);
    return {
      sodBalance: this.sodBalance,
      pledgeReceived: 0,
      pledgeRemained: 0,
      detailedAvlBalance: { optionSell: free, future: free, optionBuy: free, commOptionBuy: 0, eqMis: free, eqCnc: free, eqMtf: 0 },
      withdrawalBalance: Math.max(0, Math.min(free, this.ledger())),
      fundsAdded: this.fundsAdded,
      fundsWithdrawn: this.fundsWithdrawn,
      realizedPnl: this.realized,
      unrealizedPnl: this.unrealizedPnl(),
      brokerage: this.brokerage,
      eqCharges: this.eqCharges,
      fnoCharges: this.fnoCharges,
      available,
      usedMargin: this.usedMargin(),
    };
  }

  /** Open positions and those traded today, in first-traded order. */
  positions(): SimPosition[] {
    const out: SimPosition[] = [];
    for (const p of this.positionMap.values()) {
      if (p.netQty !== 0 || p.dayBuyQty !== 0 || p.daySellQty !== 0) out.push(positionSnapshot(p));
    }
    return out;
  }

  position(instrument: string, product: Product): SimPosition | undefined {
    const p = this.positionMap.get(key(instrument, product));
    return p ? positionSnapshot(p) : undefined;
  }

  holdings(): SimHolding[] {
    const out: SimHolding[] = [];
    for (const h of this.holdingMap.values()) if (h.t1Qty + h.dpQty > 0) out.push(holdingSnapshot(h));
    return out;
  }

  holding(instrument: string): SimHolding | undefined {
    const h = this.holdingMap.get(instrument);
    return h ? holdingSnapshot(h) : undefined;
  }

  /** wire-gaps "Margin": what an order of this size would need, with its charges. */
  calculateMargin(q: MarginQuery): SimMarginResult {
    const instrument = this.mustGet(q.instrument);
    const parts = this.marginModel.required(instrument, q.side, q.qty, q.price, q.product);
    const charges = this.charges({ instrument, side: q.side, qty: q.qty, price: q.price, product: q.product });
    const availableBalance = this.available();
    return {
      totalMargin: parts.total,
      spanMargin: parts.span,
      exposureMargin: parts.exposure,
      availableBalance,
      insufficientBalance: Math.max(0, parts.total - availableBalance),
      brokerage: charges.brokerage,
      charges,
    };
  }

  /** Charges a fill of this size would pay. */
  chargesFor(instrument: Instrument, side: Side, qty: number, price: Paise, product: Product): ChargeBreakdown {
    return this.charges({ instrument, side, qty, price, product });
  }

  // ------------------------------------------------------------------------------------------
  // Cash

  addFunds(amount: Paise): void {
    assertAmount(amount, 'addFunds');
    this.fundsAdded += amount;
  }

  withdrawFunds(amount: Paise): void {
    assertAmount(amount, 'withdrawFunds');
    if (amount > this.funds().withdrawalBalance) {
      throw new RangeError(`withdrawFunds: ${amount} paise exceeds the withdrawable balance ${this.funds().withdrawalBalance}`);
    }
    this.fundsWithdrawn += amount;
  }

  // ------------------------------------------------------------------------------------------
  // Engine-facing: margin blocks and fills

  /**
   * Margin an order would block: only the part that opens or adds to exposure (the part reducing
   * an open position of the same instrument and product is free).
   */
  orderMargin(instrument: Instrument, side: Side, qty: number, price: Paise, product: Product): MarginParts {
    const net = this.positionOf(instrument.id, product)?.netQty ?? 0;
    const reducing = side === 'BUY' ? Math.max(0, -net) : Math.max(0, net);
    const opening = Math.max(0, qty - reducing);
    return this.marginModel.required(instrument, side, opening, price, product);
  }

  /**
   * Blocks margin (and, for a CNC sell, holdings) for an order's open quantity. Replaces any earlier
   * block of the same order. With `force` the block is taken even when funds fall short (used when
   * re-blocking the remainder after a fill, which must never fail).
   */
  reserve(orderId: string, instrument: Instrument, side: Side, qty: number, price: Paise, product: Product, force = false): Reservation {
    const previous = this.blocks.get(orderId);
    if (previous) this.release(orderId);
    let holdingQty = 0;
    if (product === 'CNC' && side === 'SELL' && instrument.kind === 'EQUITY') {
      const h = this.holdingMap.get(instrument.id);
      const sellable = h ? h.t1Qty + h.dpQty - h.usedQty : 0;
      if (!force && qty > sellable) {
        if (previous) this.restore(orderId, previous);
        return { ok: false, reason: `Insufficient holdings: sell quantity ${qty} exceeds the ${Math.max(0, sellable)} shares available to sell` };
      }
      holdingQty = qty;
    }
    const margin = this.orderMargin(instrument, side, qty, price, product).total;
    // An order that only reduces exposure needs nothing, so it passes even when the account is
    // under water (an exit must never be refused for lack of funds).
    if (!force && margin > 0 && margin > this.available()) {
      const available = this.available();
      if (previous) this.restore(orderId, previous);
      return {
        ok: false,
        reason: `Insufficient funds: required margin ${formatRupees(margin)}, available ${formatRupees(Math.max(0, available))}`,
      };
    }
    this.restore(orderId, { margin, holdingQty, instrument: instrument.id });
    return { ok: true, margin };
  }

  /** Frees whatever an order blocked. */
  release(orderId: string): void {
    const b = this.blocks.get(orderId);
    if (!b) return;
    this.blocks.delete(orderId);
    this.usedByOrders -= b.margin;
    if (b.holdingQty > 0) {
      const h = this.holdingMap.get(b.instrument);
      if (h) h.usedQty = Math.max(0, h.usedQty - b.holdingQty);
    }
  }

  /** Books one fill: charges, position, holdings. Returns the position after it. */
  applyFill(instrument: Instrument, side: Side, qty: number, price: Paise, product: Product): { position: SimPosition; charges: Paise } {
    const c = this.charges({ instrument, side, qty, price, product });
    this.brokerage += c.brokerage;
    if (instrument.segment === 'EQUITY') this.eqCharges += c.totalCharges;
    else this.fnoCharges += c.totalCharges;

    const p = this.positionFor(instrument, product);
    this.bookTrade(p, side, qty, price);
    if (product === 'CNC' && instrument.kind === 'EQUITY') this.bookHolding(instrument, side, qty, price);
    return { position: positionSnapshot(p), charges: c.brokerage + c.totalCharges };
  }

  /**
   * Closes a position at its contract's settlement price (expiry): booked as the trade that closes
   * it (a SELL of a long, a BUY of a short, so the day's figures show it), realising P&L into the
   * ledger and releasing the position's margin; settlement charges go to `fno_charges`. Undefined
   * when there is no open position.
   */
  settle(instrument: Instrument, product: Product, price: Paise): SettledPosition | undefined {
    const p = this.positionMap.get(key(instrument.id, product));
    if (!p || p.netQty === 0) return undefined;
    if (!Number.isSafeInteger(price) || price < 0) {
      throw new InvariantError(`settlement price of ${instrument.id} must be a non-negative whole number of paise, got ${price}`, { instrument: instrument.id, price });
    }
    const side: Side = p.netQty > 0 ? 'SELL' : 'BUY';
    const qty = Math.abs(p.netQty);
    const charges = this.settlementCharges({ instrument, side, qty, price, product });
    this.brokerage += charges.brokerage;
    if (instrument.segment === 'EQUITY') this.eqCharges += charges.totalCharges;
    else this.fnoCharges += charges.totalCharges;
    const before = p.realizedPnl;
    this.bookTrade(p, side, qty, price);
    return { side, qty, realizedPnl: p.realizedPnl - before, charges, position: positionSnapshot(p) };
  }

  /** Open positions in contracts with an expiry (derivatives), in first-traded order. */
  derivativePositions(): { readonly instrument: Instrument; readonly product: Product }[] {
    const out: { instrument: Instrument; product: Product }[] = [];
    for (const p of this.positionMap.values()) if (p.netQty !== 0 && p.instrument.expiry !== undefined) out.push({ instrument: p.instrument, product: p.product });
    return out;
  }

  /** Open positions of one product (the intraday square-off closes INTRADAY ones), in first-traded order. */
  openPositionsOf(product: Product): { readonly instrument: Instrument; readonly product: Product; readonly netQty: number }[] {
    const out: { instrument: Instrument; product: Product; netQty: number }[] = [];
    for (const p of this.positionMap.values()) if (p.netQty !== 0 && p.product === product) out.push({ instrument: p.instrument, product: p.product, netQty: p.netQty });
    return out;
  }

  /** Latest price of an instrument, for unrealised P&L. Cheap when no position is held. */
  markPrice(instrument: string, price: Paise): void {
    const list = this.byInstrument.get(instrument);
    if (!list) return;
    for (const p of list) p.lastPrice = price;
  }

  /** Net quantity of an instrument over all products. */
  netQty(instrument: string): number {
    let n = 0;
    for (const p of this.byInstrument.get(instrument) ?? []) n += p.netQty;
    return n;
  }

  /** Positions with a non-zero net quantity (O(1): the backtest asks after every candle). */
  openPositions(): number {
    return this.openCount;
  }

  hasPosition(instrument: string): boolean {
    return this.byInstrument.has(instrument);
  }

  /** New trading day: see the file comment. */
  rollDay(): void {
    this.sodBalance = this.ledger();
    this.fundsAdded = 0;
    this.fundsWithdrawn = 0;
    this.realized = 0;
    this.brokerage = 0;
    this.eqCharges = 0;
    this.fnoCharges = 0;
    for (const [k, p] of this.positionMap) {
      if (p.netQty === 0) {
        this.positionMap.delete(k);
        const list = this.byInstrument.get(p.instrument.id);
        const rest = list?.filter((x) => x !== p) ?? [];
        if (rest.length === 0) this.byInstrument.delete(p.instrument.id);
        else this.byInstrument.set(p.instrument.id, rest);
        continue;
      }
      p.dayBuyQty = p.dayBuyValue = p.daySellQty = p.daySellValue = 0;
      p.realizedPnl = 0;
    }
    for (const h of this.holdingMap.values()) {
      h.dpQty += h.t1Qty;
      h.dpValue += h.t1Value;
      h.t1Qty = 0;
      h.t1Value = 0;
    }
  }

  // ------------------------------------------------------------------------------------------

  private restore(orderId: string, b: OrderBlock): void {
    this.blocks.set(orderId, b);
    this.usedByOrders += b.margin;
    if (b.holdingQty > 0) {
      const h = this.holdingMap.get(b.instrument);
      if (h) h.usedQty += b.holdingQty;
    }
  }

  /**
   * The position of (instrument, product), found through the instrument's short list (one per
   * product): no key string built for the lookups of every order and fill.
   */
  private positionOf(instrument: string, product: Product): PositionState | undefined {
    const list = this.byInstrument.get(instrument);
    if (list === undefined) return undefined;
    for (let i = 0; i < list.length; i++) if (list[i]!.product === product) return list[i];
    return undefined;
  }

  private positionFor(instrument: Instrument, product: Product): PositionState {
    let p = this.positionOf(instrument.id, product);
    if (!p) {
      const k = key(instrument.id, product);
      p = {
        instrument,
        product,
        netQty: 0,
        openValue: 0,
        buyQty: 0,
        buyValue: 0,
        sellQty: 0,
        sellValue: 0,
        dayBuyQty: 0,
        dayBuyValue: 0,
        daySellQty: 0,
        daySellValue: 0,
        realizedPnl: 0,
        lastPrice: undefined,
        margin: 0,
      };
      this.positionMap.set(k, p);
      const list = this.byInstrument.get(instrument.id);
      if (list) list.push(p);
      else this.byInstrument.set(instrument.id, [p]);
    }
    return p;
  }

  /** The position side of a trade (fill or settlement): quantities, average cost, realised P&L, margin. */
  private bookTrade(p: PositionState, side: Side, qty: number, price: Paise): void {
    const value = qty * price;
    const signed = side === 'BUY' ? qty : -qty;
    if (side === 'BUY') {
      p.buyQty += qty;
      p.buyValue += value;
      p.dayBuyQty += qty;
      p.dayBuyValue += value;
    } else {
      p.sellQty += qty;
      p.sellValue += value;
      p.daySellQty += qty;
      p.daySellValue += value;
    }
    const net = p.netQty;
    if (net === 0 || Math.sign(net) === Math.sign(signed)) {
      p.openValue += signed * price;
      p.netQty += signed;
    } else {
      const closing = Math.min(qty, Math.abs(net));
      const removedCost = closing === Math.abs(net) ? p.openValue : Math.round((p.openValue * closing) / Math.abs(net));
      // Long closed by a sell: proceeds - cost; short closed by a buy: cost (negative) + outlay.
      const pnl = net > 0 ? closing * price - removedCost : -removedCost - closing * price;
      p.realizedPnl += pnl;
      this.realized += pnl;
      p.openValue -= removedCost;
      p.netQty += side === 'BUY' ? closing : -closing;
      const rest = qty - closing;
      if (rest > 0) {
        p.openValue += (side === 'BUY' ? 1 : -1) * rest * price;
        p.netQty += side === 'BUY' ? rest : -rest;
      }
    }
    if (p.netQty === 0) p.openValue = 0;
    if ((net === 0) !== (p.netQty === 0)) this.openCount += net === 0 ? 1 : -1;
    p.lastPrice = price;
    this.refreshPositionMargin(p);
  }

  private refreshPositionMargin(p: PositionState): void {
    this.usedByPositions -= p.margin;
    const qty = Math.abs(p.netQty);
    const avg = qty === 0 ? 0 : Math.abs(p.openValue) / qty;
    p.margin = qty === 0 ? 0 : this.marginModel.required(p.instrument, p.netQty > 0 ? 'BUY' : 'SELL', qty, avg, p.product).total;
    this.usedByPositions += p.margin;
  }

  private bookHolding(instrument: Instrument, side: Side, qty: number, price: Paise): void {
    let h = this.holdingMap.get(instrument.id);
    if (!h) {
      h = { instrument, t1Qty: 0, t1Value: 0, dpQty: 0, dpValue: 0, usedQty: 0 };
      this.holdingMap.set(instrument.id, h);
    }
    if (side === 'BUY') {
      h.t1Qty += qty;
      h.t1Value += qty * price;
      return;
    }
    // Sell settled stock first, then today's purchases, at their average cost.
    let rest = qty;
    const fromDp = Math.min(rest, h.dpQty);
    if (fromDp > 0) {
      h.dpValue -= fromDp === h.dpQty ? h.dpValue : Math.round((h.dpValue * fromDp) / h.dpQty);
      h.dpQty -= fromDp;
      rest -= fromDp;
    }
    const fromT1 = Math.min(rest, h.t1Qty);
    if (fromT1 > 0) {
      h.t1Value -= fromT1 === h.t1Qty ? h.t1Value : Math.round((h.t1Value * fromT1) / h.t1Qty);
      h.t1Qty -= fromT1;
      rest -= fromT1;
    }
    if (rest > 0) throw new InvariantError(`CNC sell of ${qty} ${instrument.id} exceeds holdings`, { instrument: instrument.id, qty });
  }

  private mustGet(id: string): Instrument {
    const i = this.instruments.get(id);
    if (!i) throw new RangeError(`unknown instrument ${id}`);
    return i;
  }
}

function assertAmount(amount: Paise, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`${what}: amount must be a positive whole number of paise, got ${amount}`);
}
