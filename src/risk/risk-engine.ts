/**
 * The risk engine: runs the enabled checks, in the configured order, over every intent, and
 * publishes a `denied` event for the first that refuses (it never throws for a denial). It also
 * holds the trading state (active / reducing / halted) and the kill switch, both persisted in the
 * store (`risk` namespace) so a restart comes back halted if it went down halted.
 *
 * The kill switch: whenever P&L changes (`onPnl`), a day's loss at or beyond `maxDailyLoss` trips
 * it once: the state becomes halted, an alert is published, and the engine's `onKillSwitch`
 * handler (wired to execution) cancels every working order and flattens every position.
 */
import type { Clock } from '../core/clock.js';
import type { EventBus } from '../core/bus/event-bus.js';
import type { OrderSnapshot } from '../core/events.js';
import type { Intent } from '../core/intents.js';
import type { Instrument, InstrumentLookup } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import { silentLogger } from '../core/silent-log.js';
import { formatInr, type Paise } from '../core/money.js';
import type { JsonValue, Store } from '../core/store.js';
import { MarginModel } from './margin-model.js';
import type { TrailingMode } from '../core/intents.js';
import { parseRiskConfig, type RiskConfig, type RiskConfigInput, type TradingState } from './config.js';
import { CHECKS } from './checks/index.js';
import type { CircuitBand, Denial, RiskCheck, RiskState } from './types.js';
import { orderTerms, type OrderTerms } from './order-terms.js';
import { intentPrices, type IntentPrices } from './intent-prices.js';
import { squareOffTimes, type SquareOffSegment, type SquareOffTimes } from './rules/square-off.js';

/** Where the risk engine reads the live state from (the order state machine, the portfolio, funds). */
export interface RiskSources {
  readonly instruments: InstrumentLookup;
  readonly orders: {
    get(tag: string): OrderSnapshot | undefined;
    openCount(): number;
    workingQty(instrument: string, side: 'BUY' | 'SELL'): number;
    modifications(tag: string): number;
    /** The tag of an order in the instrument whose fills are still being read, if any. */
    settlingIn?(instrument: string): string | undefined;
    /** Signed quantity reported filled but not booked yet (counted in the position risk judges). */
    unbookedQty?(instrument: string, strategyId?: string): number;
  };
  readonly portfolio: {
    netQty(instrument: string, strategyId?: string): number;
    lastPrice(instrument: string): Paise | undefined;
    dailyPnl(): Paise;
  };
  availableFunds(): Paise | undefined;
  circuit?(instrument: string): CircuitBand | undefined;
}

export interface RiskEngineOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly sources: RiskSources;
  readonly config?: RiskConfigInput;
  readonly store?: Store;
  readonly log?: Logger;
  /**
   * Who trails stop-loss legs (the execution's mode, `trailingModeOf(venue.capabilities)`).
   * Default `venue`: the strict reading, `is_tsl` would be sent.
   */
  readonly trailingMode?: TrailingMode;
  /** `execution.autoSlice` (see RiskState.autoSlice); default false. */
  readonly autoSlice?: boolean;
  /**
   * Minute of the IST day, per segment, from which INTRADAY orders that open or add are denied
   * (the engine's intraday exit time). Default: the broker's square-off times (rules/square-off.ts).
   */
  readonly intradayCutoff?: SquareOffTimes;
}

const NS = 'risk';

export class RiskEngine implements RiskState {
  readonly config: RiskConfig;
  readonly margin: MarginModel;
  readonly trailingMode: TrailingMode;
  readonly autoSlice: boolean;
  private readonly checks: readonly RiskCheck[];
  private state: TradingState;
  private tripped = false;
  private readonly writes = new Map<string, number[]>();
  private readonly circuits = new Map<string, CircuitBand>();
  private readonly cutoffs: SquareOffTimes;
  /** Instruments held to reducing-only by the engine (a position mismatch): why, and the broker's position. */
  private readonly holds = new Map<string, { readonly reason: string; readonly brokerNet: number | undefined }>();
  private readonly clock: Clock;
  private readonly bus: EventBus;
  private readonly src: RiskSources;
  private readonly store: Store | undefined;
  private readonly log: Logger;
  private memoIntent: Intent | undefined;
  private memoTerms: OrderTerms | undefined | null = null;
  private memoPrices: IntentPrices | undefined | null = null;
  /** Called once when the kill switch trips (the engine flattens and cancels). */
  onKillSwitch: (reason: string) => void = () => undefined;

  constructor(options: RiskEngineOptions) {
    this.config = parseRiskConfig(options.config);
    this.margin = new MarginModel(this.config.margin, () => options.clock.now());
    this.trailingMode = options.trailingMode ?? 'venue';
    this.autoSlice = options.autoSlice ?? false;
    this.checks = this.config.checks.map((n) => CHECKS[n]);
    this.state = this.config.tradingState;
    this.clock = options.clock;
    this.bus = options.bus;
    this.src = options.sources;
    this.store = options.store;
    this.log = options.log ?? silentLogger();
    this.cutoffs = options.intradayCutoff ?? squareOffTimes();
  }

  /** Restores the trading state and kill switch persisted by an earlier run. */
  async load(): Promise<void> {
    if (!this.store) return;
    const saved = await this.store.get<string>(NS, 'tradingState');
    if (saved === 'active' || saved === 'reducing' || saved === 'halted') this.state = saved;
    const ks = await this.store.get<{ reason: string; ts: number }>(NS, 'killSwitch');
    if (ks) {
      this.tripped = true;
      this.state = 'halted';
      this.log.warn({ killSwitch: ks }, 'risk: the kill switch tripped in an earlier run is still on; trading stays halted');
    }
  }

  /**
   * Runs the enabled checks. Returns null when the intent may proceed (and counts it against the
   * order rate), or the denial, which it has already published as a `denied` event.
   */
  evaluate(intent: Intent): Denial | null {
    this.memo(intent);
    const checks = this.checks;
    for (let i = 0; i < checks.length; i++) {
      const d = checks[i]!.check(intent, this);
      if (d) {
        this.bus.publish({ type: 'denied', ts: this.clock.now(), intent, code: d.code, reason: d.reason });
        return d;
      }
    }
    if (intent.kind === 'place' || intent.kind === 'smart' || intent.kind === 'modify') this.recordWrite(intent.strategyId);
    return null;
  }

  /** Runs the checks without side effects (no event, no rate count): for what-if questions and tests. */
  dryRun(intent: Intent): Denial | null {
    this.memo(intent);
    for (const c of this.checks) {
      const d = c.check(intent, this);
      if (d) return d;
    }
    return null;
  }

  setTradingState(next: TradingState, reason = 'operator'): void {
    if (next === 'active' && this.tripped) {
      this.tripped = false;
      void this.persist('killSwitch', null);
    }
    if (next === this.state) return;
    const prev = this.state;
    this.state = next;
    void this.persist('tradingState', next);
    this.bus.publish({ type: 'trading-state', ts: this.clock.now(), from: prev, to: next, reason });
  }

  /** Re-evaluates the daily-loss limit; call on every P&L change (cheap when no limit is set). */
  onPnl(): void {
    const max = this.config.maxDailyLoss;
    if (max === undefined || this.tripped) return;
    const pnl = this.src.portfolio.dailyPnl();
    if (pnl <= -max) this.tripKillSwitch(`daily loss ${formatInr(-pnl)} reached the limit ${formatInr(max)}`);
  }

  /** Trips the kill switch: halt (persisted), alert, and hand over to the flattening handler. */
  tripKillSwitch(reason: string): void {
    if (this.tripped) return;
    this.tripped = true;
    const ts = this.clock.now();
    void this.persist('killSwitch', { reason, ts });
    this.setTradingState('halted', 'kill switch');
    this.bus.publish({ type: 'alert', ts, level: 'critical', code: 'KILL_SWITCH', message: `kill switch: ${reason}; cancelling orders, flattening positions, trading halted` });
    this.log.error({ reason }, 'risk: kill switch tripped');
    try {
      this.onKillSwitch(reason);
    } catch (err) {
      this.log.error({ err }, 'risk: the kill-switch handler failed');
    }
  }

  /**
   * Holds an instrument to reducing-only (no new entries; reducing intents, cancels and exits
   * pass) until `release`: the engine does this while the position differs from the broker's.
   */
  hold(instrument: string, reason: string, brokerNet?: number): void {
    this.holds.set(instrument, { reason, brokerNet });
  }

  release(instrument: string): void {
    this.holds.delete(instrument);
  }

  /** Instruments held now, with the reason. */
  held(): ReadonlyMap<string, { readonly reason: string; readonly brokerNet: number | undefined }> {
    return this.holds;
  }

  /** Sets or clears an instrument's circuit band (from quotes or the venue). */
  setCircuit(instrument: string, band: CircuitBand | undefined): void {
    if (band) this.circuits.set(instrument, band);
    else this.circuits.delete(instrument);
  }

  // RiskState ---------------------------------------------------------------------------------

  terms(intent: Intent): OrderTerms | undefined {
    if (intent !== this.memoIntent) this.memo(intent);
    if (this.memoTerms === null) this.memoTerms = orderTerms(intent, this);
    return this.memoTerms;
  }
  prices(intent: Intent): IntentPrices | undefined {
    if (intent !== this.memoIntent) this.memo(intent);
    if (this.memoPrices === null) this.memoPrices = intentPrices(intent, this);
    return this.memoPrices;
  }

  now(): number {
    return this.clock.now();
  }
  tradingState(): TradingState {
    return this.state;
  }
  killSwitch(): boolean {
    return this.tripped;
  }
  instrument(id: string): Instrument | undefined {
    return this.src.instruments.get(id);
  }
  lastPrice(id: string): Paise | undefined {
    return this.src.portfolio.lastPrice(id);
  }
  circuit(id: string): CircuitBand | undefined {
    return this.circuits.get(id) ?? this.src.circuit?.(id);
  }
  intradayCutoff(segment: SquareOffSegment): number | undefined {
    return this.cutoffs[segment];
  }
  order(tag: string): OrderSnapshot | undefined {
    return this.src.orders.get(tag);
  }
  entryHold(instrument: string): { readonly reason: string; readonly brokerNet?: number | undefined } | undefined {
    const held = this.holds.size > 0 ? this.holds.get(instrument) : undefined;
    if (held !== undefined) return held;
    const tag = this.src.orders.settlingIn?.(instrument);
    return tag === undefined ? undefined : { reason: `the fills of order ${tag} are still being read` };
  }
  modifications(tag: string): number {
    return this.src.orders.modifications(tag);
  }
  openOrderCount(): number {
    return this.src.orders.openCount();
  }
  workingQty(instrument: string, side: 'BUY' | 'SELL'): number {
    return this.src.orders.workingQty(instrument, side);
  }
  netQty(instrument: string, strategyId?: string): number {
    // Fills the venue reports and the engine is still reading count: a position judged without
    // them would let the same entry (or exit) through twice.
    return this.src.portfolio.netQty(instrument, strategyId) + (this.src.orders.unbookedQty?.(instrument, strategyId) ?? 0);
  }
  recentWrites(strategyId: string, windowMs: number): number {
    const list = this.writes.get(strategyId);
    if (!list) return 0;
    const from = this.clock.now() - windowMs;
    let drop = 0;
    while (drop < list.length && list[drop]! <= from) drop++;
    if (drop) list.splice(0, drop);
    return list.length;
  }
  availableFunds(): Paise | undefined {
    return this.src.availableFunds();
  }
  dailyPnl(): Paise {
    return this.src.portfolio.dailyPnl();
  }

  /** Starts a fresh per-intent cache (checks run against one unchanging state per evaluation). */
  private memo(intent: Intent): void {
    this.memoIntent = intent;
    this.memoTerms = null;
    this.memoPrices = null;
  }

  private recordWrite(strategyId: string): void {
    let list = this.writes.get(strategyId);
    if (!list) this.writes.set(strategyId, (list = []));
    list.push(this.clock.now());
    if (list.length > this.config.orderRate.max * 4) this.recentWrites(strategyId, this.config.orderRate.windowMs);
  }

  private async persist(key: string, value: JsonValue): Promise<void> {
    if (!this.store) return;
    try {
      if (value === null) await this.store.delete(NS, key);
      else await this.store.set(NS, key, value);
    } catch (err) {
      this.log.error({ err, key }, 'risk: could not persist state');
    }
  }
}
