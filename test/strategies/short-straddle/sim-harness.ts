/**
 * A test driver that runs one strategy against the simulator's real matching engine
 * (`src/adapters/simulator/matching`: the one fill model, with candles played by its
 * `CandleDriver`), so strategy tests see true fills, smart-order legs, OCO and rejections.
 *
 * Only the short-straddle tests use it: they publish option chains by hand, which the engine does
 * not do in-process (the daemon's chain service does), so they cannot run in the engine as the
 * orb-smart tests do (../orb-smart/engine-harness.ts). It stands in for the engine's glue: intents go
 * straight to the matching engine (an optional `deny` hook plays the risk layer), venue events are
 * queued and delivered to the hooks after the call that caused them returns (as the engine's bus
 * does), and the context views read the matching engine's book and account. It does not emulate
 * trailing stops: that is the engine's job (with `tsl: 'on'` the simulator trails natively).
 */
import { VirtualClock } from '../../../src/core/clock.js';
import type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent } from '../../../src/core/events.js';
import { isTerminalStatus, oppositeSide } from '../../../src/core/enums.js';
import type { Intent } from '../../../src/core/intents.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { silentLogger } from '../../../src/core/log.js';
import type { Paise } from '../../../src/core/money.js';
import type { JsonValue } from '../../../src/core/store.js';
import { istDate } from '../../../src/core/time.js';
import { CandleDriver, MatchingEngine, isVenueError } from '../../../src/adapters/simulator/matching/index.js';
import type { SimEvent, SimOrder, SimTrade } from '../../../src/adapters/simulator/matching/types.js';
import type { IntentDraft, OrderOptions, Strategy } from '../../../src/strategies/strategy.js';
import type { OptionChainSnapshot, OptionStrategy, OptionStrategyContext } from '../../../src/strategies/options/option-data.js';
import { toSmartOrderRequest } from '../../../backtest/venue.js';

export interface HarnessOptions {
  readonly instruments: readonly Instrument[];
  /** Epoch ms the clock starts at (the first session's open, or before). */
  readonly start: number;
  readonly openingBalance?: Paise;
  readonly tsl?: 'on' | 'off';
  /** Send `is_tsl` to the venue for smart intents with a trailing step (only meaningful with tsl on). */
  readonly nativeTrailing?: boolean;
  /** Plays the risk layer: a reason denies the intent (it never reaches the venue). */
  readonly deny?: (intent: Intent) => string | undefined;
  /** Persisted state to start from (a restart). */
  readonly state?: { [key: string]: JsonValue };
  /** `ctx.orders.get` forgets fully filled orders, as an engine pruning finished records may. */
  readonly pruneFilled?: boolean;
}

export interface Denial {
  readonly intent: Intent;
  readonly reason: string;
  /** `risk` when the deny hook refused it, `venue` when the matching engine threw. */
  readonly by: 'risk' | 'venue';
}

type AnyStrategy = Strategy & Partial<Pick<OptionStrategy, 'onChain'>>;

export class SimHarness {
  readonly clock: VirtualClock;
  readonly engine: MatchingEngine;
  readonly driver: CandleDriver;
  readonly instruments: InstrumentTable;
  ctx: OptionStrategyContext;
  readonly intents: Intent[] = [];
  readonly denials: Denial[] = [];
  readonly trades: SimTrade[] = [];
  /** Every order snapshot delivered to the strategy, in order. */
  readonly orderLog: OrderSnapshot[] = [];
  private readonly queue: SimEvent[] = [];
  private readonly snapshots = new Map<string, OrderSnapshot>();
  private readonly ids = new Map<string, string>();
  private readonly chains = new Map<string, OptionChainSnapshot>();
  private readonly expiryLists = new Map<string, readonly string[]>();
  private seq = 0;
  private draining = false;
  private day: string;
  warmingUp = false;

  constructor(
    public strategy: AnyStrategy,
    private readonly o: HarnessOptions,
  ) {
    this.clock = new VirtualClock(o.start);
    this.instruments = new InstrumentTable(o.instruments);
    this.engine = new MatchingEngine({
      instruments: this.instruments,
      clock: this.clock,
      matchOnArrival: false,
      tsl: o.tsl ?? 'off',
      accountOptions: { openingBalance: o.openingBalance ?? 10_000_000_00 },
    });
    this.driver = new CandleDriver(this.engine, { bothTouched: 'pessimistic' });
    this.engine.subscribe((e) => this.queue.push(e));
    this.day = istDate(o.start);
    this.ctx = this.makeContext(o.state ?? {});
  }

  start(): void {
    this.run(() => this.strategy.onStart?.(this.ctx));
  }

  /**
   * A process restart: a fresh strategy instance gets the persisted state back (a JSON copy, as the
   * engine's store gives it) while the venue and the order states carry on, as the engine's
   * reconciliation with the order book would leave them.
   */
  restart(strategy: AnyStrategy): void {
    const saved = JSON.parse(JSON.stringify(this.ctx.state)) as { [key: string]: JsonValue };
    this.strategy = strategy;
    this.ctx = this.makeContext(saved);
    this.start();
  }

  /**
   * One closed candle: the venue plays it first (orders resting since earlier candles may fill on
   * it), then the strategy sees it at its close. A new IST day closes the previous session first.
   */
  candle(c: CandleEvent, hook = true): void {
    const day = istDate(c.start);
    if (day !== this.day) {
      this.engine.expireSession(this.clock.now());
      this.clock.advanceTo(c.start);
      this.engine.openSession(c.start);
      this.day = day;
      this.drain();
    }
    if (c.start > this.clock.now()) this.clock.advanceTo(c.start);
    this.driver.playCandle({ instrument: c.instrument, start: c.start, ts: c.ts, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });
    this.drain();
    this.clock.advanceTo(Math.max(this.clock.now(), c.ts));
    if (hook) this.run(() => this.strategy.onCandle?.(c, this.ctx));
  }

  /**
   * Publishes a fresh option chain (as the engine would) and calls `onChain`. The chain's last
   * prices reach the venue's books first: the engine subscribes the chain's legs, so their prices
   * are the market's.
   */
  publishChain(chain: OptionChainSnapshot, expiries?: readonly string[]): void {
    for (const row of chain.strikes) {
      for (const q of [row.ce, row.pe]) {
        if (q?.ltp !== undefined && this.instruments.get(q.instrument)) this.engine.onMarket({ instrument: q.instrument, ts: chain.ts, ltp: q.ltp, mode: 'tick' });
      }
    }
    this.drain();
    this.chains.set(chain.underlying, chain);
    if (expiries) this.expiryLists.set(chain.underlying, expiries);
    this.run(() => this.strategy.onChain?.(chain, this.ctx));
  }

  order(tag: string): OrderSnapshot | undefined {
    return this.snapshots.get(tag);
  }

  simOrder(tag: string): SimOrder | undefined {
    const id = this.ids.get(tag);
    return id === undefined ? undefined : this.engine.getOrder(id);
  }

  stop(): void {
    this.run(() => this.strategy.onStop?.(this.ctx));
  }

  private run(fn: () => void): void {
    fn();
    this.drain();
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let e = this.queue.shift(); e !== undefined; e = this.queue.shift()) this.deliver(e);
    } finally {
      this.draining = false;
    }
  }

  private deliver(e: SimEvent): void {
    const s = this.strategy;
    if (e.type === 'order') {
      const snap = this.toSnapshot(e.order);
      this.snapshots.set(snap.tag, snap);
      this.ids.set(snap.tag, e.order.orderId);
      this.orderLog.push(snap);
      s.onOrder?.(snap, this.ctx);
    } else if (e.type === 'fill') {
      this.trades.push(e.trade);
      const t = e.trade;
      const fill: FillEvent = {
        type: 'fill',
        ts: t.ts,
        fillId: t.fillId,
        tag: this.tagOf(e.order),
        strategyId: this.ctx.id,
        orderId: t.orderId,
        instrument: t.instrument,
        side: t.side,
        qty: t.qty,
        price: t.price,
        product: t.product,
        charges: t.charges,
      };
      s.onFill?.(fill, this.ctx);
    } else if (e.type === 'position') {
      const p = e.position;
      const pos: PositionEvent = {
        type: 'position',
        ts: e.ts,
        instrument: p.instrument,
        product: p.product,
        netQty: p.netQty,
        openValue: p.openValue,
        realizedPnl: p.realizedPnl,
        strategyId: this.ctx.id,
      };
      s.onPosition?.(pos, this.ctx);
    }
  }

  private tagOf(o: SimOrder): string {
    return o.leg === 'stopLoss' || o.leg === 'target' ? `${o.remarks}:${o.leg}` : o.remarks;
  }

  private toSnapshot(o: SimOrder): OrderSnapshot {
    const isLeg = o.leg === 'stopLoss' || o.leg === 'target';
    return {
      tag: this.tagOf(o),
      strategyId: this.ctx.id,
      orderId: o.orderId,
      instrument: o.instrument,
      side: o.side,
      qty: o.qty,
      orderType: o.requestedOrderType,
      product: o.product,
      validity: o.validity,
      ...(o.requestedOrderType !== 'MARKET' && o.limitPrice !== undefined ? { limitPrice: o.limitPrice } : {}),
      ...(o.triggerPrice !== undefined ? { triggerPrice: o.triggerPrice } : {}),
      status: o.status,
      venueStatus: o.venueStatus,
      filledQty: o.filledQty,
      filledValue: o.filledValue,
      modifications: o.modifications,
      ...(o.extraInfo ? { reason: o.extraInfo } : {}),
      ...(isLeg ? { parentTag: o.remarks } : {}),
      ...(o.leg !== undefined ? { leg: o.leg } : {}),
    };
  }

  private submit(draft: IntentDraft): string {
    const id = `h${(++this.seq).toString(36)}`;
    const intent = { ...draft, id, strategyId: this.ctx.id } as Intent;
    this.intents.push(intent);
    if (this.warmingUp) {
      this.denials.push({ intent, reason: 'warming up', by: 'risk' });
      return id;
    }
    const refusal = this.o.deny?.(intent);
    if (refusal !== undefined) {
      this.denials.push({ intent, reason: refusal, by: 'risk' });
      return id;
    }
    try {
      this.execute(intent);
    } catch (err) {
      if (!isVenueError(err)) throw err;
      this.denials.push({ intent, reason: err.message, by: 'venue' });
    }
    return id;
  }

  private execute(i: Intent): void {
    const e = this.engine;
    switch (i.kind) {
      case 'place':
        e.placeOrder({
          instrument: i.instrument,
          side: i.side,
          qty: i.qty,
          orderType: i.orderType,
          ...(i.limitPrice !== undefined ? { limitPrice: i.limitPrice } : {}),
          ...(i.triggerPrice !== undefined ? { triggerPrice: i.triggerPrice } : {}),
          validity: i.validity,
          product: i.product,
          remarks: i.id,
        });
        return;
      case 'smart': {
        // The backtest venue's own translation, so this harness places exactly what backtests do;
        // the trailing step goes to the venue only when the venue is to trail natively.
        const native = this.o.nativeTrailing === true && i.trailingStep !== undefined;
        e.placeSmartOrder(toSmartOrderRequest({ ...i, tag: i.id, trailingStep: native ? i.trailingStep : undefined }));
        return;
      }
      case 'modify': {
        const tag = i.leg === 'stopLoss' || i.leg === 'target' ? `${i.target}:${i.leg}` : i.target;
        const id = this.mustId(tag);
        e.modifyOrder(id, {
          ...(i.qty !== undefined ? { qty: i.qty } : {}),
          ...(i.limitPrice !== undefined ? { limitPrice: i.limitPrice } : {}),
          ...(i.triggerPrice !== undefined ? { triggerPrice: i.triggerPrice } : {}),
        });
        return;
      }
      case 'cancel': {
        const tag = i.leg === 'stopLoss' || i.leg === 'target' ? `${i.target}:${i.leg}` : i.target;
        e.cancelOrder(this.mustId(tag));
        return;
      }
      case 'exit': {
        if (i.cancelOpenOrders ?? true) {
          for (const o of e.workingOrders(i.instrument)) {
            // A smart order's parent cancel takes its legs with it; a leg alone settles the OCO.
            const current = e.getOrder(o.orderId);
            if (current && !isTerminalStatus(current.status)) e.cancelOrder(o.orderId);
          }
        }
        const net = e.account.netQty(i.instrument);
        if (net !== 0) {
          e.placeOrder({
            instrument: i.instrument,
            side: oppositeSide(net > 0 ? 'BUY' : 'SELL'),
            qty: Math.abs(net),
            orderType: 'MARKET',
            validity: 'DAY',
            product: i.product ?? 'INTRADAY',
            remarks: i.id,
          });
        }
        return;
      }
    }
  }

  private mustId(tag: string): string {
    const id = this.ids.get(tag);
    if (id === undefined) throw new Error(`harness: no order with tag ${tag}`);
    return id;
  }

  private makeContext(state: { [key: string]: JsonValue }): OptionStrategyContext {
    const isWarming = (): boolean => this.warmingUp;
    const opts = (o: OrderOptions | undefined) => ({
      orderType: o?.triggerPrice !== undefined ? ('STOP_LOSS' as const) : o?.limitPrice !== undefined ? ('LIMIT' as const) : ('MARKET' as const),
      ...(o?.limitPrice !== undefined ? { limitPrice: o.limitPrice } : {}),
      ...(o?.triggerPrice !== undefined ? { triggerPrice: o.triggerPrice } : {}),
      validity: o?.validity ?? 'DAY',
      product: o?.product ?? 'INTRADAY',
    });
    return {
      id: 'test-1',
      clock: { now: () => this.clock.now() },
      portfolio: {
        netQty: (instrument) => this.engine.account.netQty(instrument),
        position: () => undefined,
        positions: () => [],
        pnl: () => this.engine.account.equity() - (this.o.openingBalance ?? 10_000_000_00),
        lastPrice: (instrument) => this.engine.lastPrice(instrument),
      },
      orders: {
        get: (tag) => {
          const o = this.snapshots.get(tag);
          return this.o.pruneFilled && o?.status === 'FILLED' ? undefined : o;
        },
        open: (instrument) => [...this.snapshots.values()].filter((s) => !isTerminalStatus(s.status) && (instrument === undefined || s.instrument === instrument)),
        settling: (instrument) => [...this.snapshots.values()].filter((s) => s.settling === true && (instrument === undefined || s.instrument === instrument)),
      },
      instruments: this.instruments,
      log: silentLogger(),
      state,
      get warmingUp() {
        return isWarming();
      },
      options: {
        expiries: (u) => this.expiryLists.get(u),
        chain: (u) => this.chains.get(u),
      },
      submit: (d) => this.submit(d),
      buy: (instrument, qty, o) => this.submit({ kind: 'place', instrument, side: 'BUY', qty, ...opts(o) }),
      sell: (instrument, qty, o) => this.submit({ kind: 'place', instrument, side: 'SELL', qty, ...opts(o) }),
      exit: (instrument, product) => this.submit({ kind: 'exit', instrument, ...(product ? { product } : {}) }),
      cancel: (tag) => this.submit({ kind: 'cancel', target: tag }),
    };
  }
}
