/**
 * Runs a session recording's market data through the engine again, on a virtual clock, against
 * the simulator's matching engine in-process (the one fill model) at tick level: each recorded
 * tick first updates the matching engine's book (working orders fill against it, as in the
 * simulator), then goes to the engine, whose strategies decide, risk checks, and the backtest
 * venue places (a MARKET order fills at once against the book of that tick, as the simulator
 * fills on arrival).
 *
 * Two modes:
 * - `replay`: the session as it ran: the recorded candles are published where they were (what
 *   the strategies saw, not rebuilt), tags minted with the recorded prefix and run (so the same
 *   decisions carry the same ids), and the operator's actions are applied where they happened
 *   (ctl halt/resume and session-end trading states, the session-end cancel or flatten, the
 *   daemon's stop action).
 * - `backtest`: any strategy over the recorded ticks: candles built from the ticks by the engine
 *   (any interval), nothing else taken from the session.
 *
 * Sessions as the simulator keeps them: the matching engine opens at the first event of an IST
 * day, squares INTRADAY positions off at each segment's time (risk/rules/square-off.ts) and
 * expires DAY orders at 15:30, driven by clock timers so they happen between the same events as
 * they did live.
 */
import { VirtualClock } from '../../src/core/clock.js';
import type { CandleEvent, DeniedEvent, Event, FillEvent, OrderSnapshot, TickEvent } from '../../src/core/events.js';
import type { Intent } from '../../src/core/intents.js';
import type { InstrumentLookup } from '../../src/core/instruments.js';
import type { Logger } from '../../src/core/log.js';
import { silentLogger } from '../../src/core/silent-log.js';
import type { Paise } from '../../src/core/money.js';
import { MemoryStore } from '../../src/core/store.js';
import { DAY_MS, IST_OFFSET_MS, MINUTE_MS } from '../../src/core/time.js';
import { SESSION_CLOSE_MINUTE, SESSION_OPEN_MINUTE } from '../../src/core/candles.js';
import type { ExecutionConfigInput } from '../../src/adapters/execution/config.js';
import { MatchingEngine, type ChargeCalculator } from '../../src/adapters/simulator/matching/index.js';
import type { MarketUpdate } from '../../src/adapters/simulator/matching/types.js';
import { Engine } from '../../src/engine/engine.js';
import type { StrategySpec } from '../../src/engine/engine-options.js';
import type { OpenedRecording, RecordedLine } from '../../src/engine/recording/reader.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import { SquareOffTimesInput, squareOffSegment, squareOffTimes, squareOffWithin, type IntradayExitAt, type SquareOffSegment } from '../../src/risk/rules/square-off.js';
import { EquityRecorder, freeze, type EquityCurve } from '../metrics/equity-curve.js';
import type { FillRecord, FillVia } from '../metrics/trades.js';
import { BacktestVenue } from '../venue.js';

export type ShutdownAction = 'none' | 'cancel' | 'flatten';

export interface TickReplayOptions {
  readonly recording: OpenedRecording;
  readonly instruments: InstrumentLookup;
  readonly strategies: readonly StrategySpec[];
  readonly cash: Paise;
  readonly mode: 'replay' | 'backtest';
  readonly risk?: RiskConfigInput;
  readonly execution?: ExecutionConfigInput;
  readonly intradayExitAt?: IntradayExitAt;
  readonly squareOff?: SquareOffTimesInput;
  /** The daemon's stop action (replay: run when the recording shows the daemon stopping). */
  readonly onStop?: ShutdownAction;
  /** The venue's charges, given the clock (default: the simulator's, Indian statutory charges). */
  readonly charges?: (now: () => number) => ChargeCalculator;
  /** Ticks of adverse slippage on market-like fills (backtests; a replay keeps 0, as the simulator). */
  readonly slippageTicks?: number;
  readonly marketProtectionPct?: number;
  /** Every recorded line as it is read, with the ordinal of the last market event fed so far. */
  readonly onRecorded?: (r: RecordedLine, market: number) => void;
  readonly log?: Logger;
}

/** A decision of the replayed session: the intent, when, and after which market event (ordinal, from 1). */
export interface ReplayDecision {
  readonly intent: Intent;
  readonly ts: number;
  readonly market: number;
}

export interface TickReplayRun {
  readonly decisions: readonly ReplayDecision[];
  /** Denials by intent id (the last one of each). */
  readonly denials: ReadonlyMap<string, DeniedEvent>;
  /** Every order's first and last state by tag. */
  readonly firstOrder: ReadonlyMap<string, OrderSnapshot>;
  readonly lastOrder: ReadonlyMap<string, OrderSnapshot>;
  /** The fills as the engine booked them (the recording's shape), with the market ordinal they came at. */
  readonly fillEvents: readonly FillEvent[];
  readonly fillMarket: readonly number[];
  /** The fills as the backtester reports them. */
  readonly fills: readonly FillRecord[];
  readonly curve: EquityCurve;
  readonly startingCash: Paise;
  readonly ticks: number;
  readonly candles: number;
  readonly marketEvents: number;
  readonly firstTs: number | undefined;
  readonly lastTs: number | undefined;
  readonly lastPrices: ReadonlyMap<string, Paise>;
  readonly alerts: ReadonlyArray<{ readonly ts: number; readonly code: string; readonly message: string }>;
  readonly intradayExitTags: ReadonlySet<string>;
  /** Wall time of the replay loop, ms. */
  readonly replayMs: number;
  readonly instruments: readonly string[];
  readonly engine: Engine;
}

/** Trading-state reasons the engine gives itself (a replay reproduces these; any other is an operator's). */
const ENGINE_REASONS = new Set(['kill switch', 'position mismatch', 'positions agree with the broker again']);

export async function runTickReplay(o: TickReplayOptions): Promise<TickReplayRun> {
  const log = o.log ?? silentLogger();
  const clock = new VirtualClock(o.recording.header.ts);
  const brokerSquareOff = squareOffTimes(o.squareOff === undefined ? undefined : SquareOffTimesInput.parse(o.squareOff));
  const matching = new MatchingEngine({
    instruments: o.instruments,
    clock,
    squareOffTimes: brokerSquareOff,
    matchOnArrival: true,
    tsl: 'off',
    sessionOpen: false,
    ...(o.marketProtectionPct !== undefined ? { marketProtectionPct: o.marketProtectionPct } : {}),
    ...(o.slippageTicks !== undefined ? { slippageTicks: o.slippageTicks } : {}),
    accountOptions: { openingBalance: o.cash, ...(o.charges ? { charges: o.charges(() => clock.now()) } : {}) },
  });
  const venue = new BacktestVenue(matching, { nativeTrailing: false, clock });
  const store = new MemoryStore();
  const replay = o.mode === 'replay';
  const tags = replay ? { prefix: o.recording.header.tagPrefix, run: o.recording.header.run } : { prefix: 'bt', run: 1 };
  // The engine takes the next run number: start the counter one below the recorded run.
  await store.set('engine', 'run', tags.run - 1);
  const engine = await Engine.create({
    clock,
    venue,
    instruments: o.instruments,
    strategies: o.strategies,
    store,
    log,
    ...(o.risk ? { risk: o.risk } : {}),
    ...(o.execution ? { execution: o.execution } : {}),
    buildCandles: !replay,
    tagPrefix: tags.prefix,
    squareOffTimes: brokerSquareOff,
    ...(o.intradayExitAt !== undefined ? { intradayExitAt: o.intradayExitAt } : {}),
  });

  let market = 0;
  const decisions: ReplayDecision[] = [];
  const denials = new Map<string, DeniedEvent>();
  const firstOrder = new Map<string, OrderSnapshot>();
  const lastOrder = new Map<string, OrderSnapshot>();
  const fillEvents: FillEvent[] = [];
  const fillMarket: number[] = [];
  const alerts: Array<{ ts: number; code: string; message: string }> = [];
  const exitTags = new Set<string>();
  engine.bus.on('intent', (e) => {
    decisions.push({ intent: e.intent, ts: e.ts, market });
    if (e.intent.kind === 'exit') exitTags.add(e.intent.id);
  });
  engine.bus.on('denied', (d) => void denials.set(d.intent.id, d));
  engine.bus.on('order', (e) => {
    if (!firstOrder.has(e.order.tag)) firstOrder.set(e.order.tag, e.order);
    lastOrder.set(e.order.tag, e.order);
  });
  engine.bus.on('fill', (f) => {
    fillEvents.push(f);
    fillMarket.push(market);
  });
  engine.bus.on('alert', (a) => {
    if (alerts.length < 50) alerts.push({ ts: a.ts, code: a.code, message: a.message });
  });
  const fills: FillRecord[] = [];
  matching.subscribe((e) => {
    if (e.type !== 'fill') return;
    const t = e.trade;
    const leg = e.order.leg;
    const via: FillVia = leg === 'stopLoss' ? (e.order.modifications > 0 ? 'trailing' : 'stop-loss') : leg === 'target' ? 'target' : exitTags.has(t.remarks) ? 'square-off' : 'signal';
    fills.push({ ts: t.ts, instrument: t.instrument, side: t.side, qty: t.qty, price: t.price, charges: t.charges, tag: t.remarks, orderId: t.orderId, product: t.product, via });
  });

  const ids = new Set<string>();
  for (const r of engine.runners) for (const i of r.strategy.instruments) ids.add(i);
  const segments = [...new Set([...ids].flatMap((id) => {
    const inst = o.instruments.get(id);
    const seg = inst ? squareOffSegment(inst) : undefined;
    return seg ? [seg] : [];
  }))] as SquareOffSegment[];

  // Sessions on clock timers: they fire between the events they fell between live.
  let sessionDay = -1;
  const openSession = (ts: number): void => {
    const day = Math.floor((ts + IST_OFFSET_MS) / DAY_MS);
    if (day === sessionDay) return;
    sessionDay = day;
    const dayStart = day * DAY_MS - IST_OFFSET_MS;
    const open = dayStart + SESSION_OPEN_MINUTE * MINUTE_MS;
    const close = dayStart + SESSION_CLOSE_MINUTE * MINUTE_MS;
    if (ts >= close) return;
    matching.openSession(Math.max(open, clock.now()));
    for (const segment of segments) {
      const at = squareOffWithin(matching.squareOffTimes[segment], open, close);
      if (at > clock.now()) clock.setTimeout(() => void matching.squareOff(segment, at), at - clock.now());
    }
    clock.setTimeout(() => matching.expireSession(close), close - clock.now());
  };

  const curve = new EquityRecorder(512);
  const account = matching.account;
  let lastMinute = -1;
  const lastPrices = new Map<string, Paise>();
  let ticks = 0;
  let candles = 0;
  let firstTs: number | undefined;
  let lastTs: number | undefined;
  let stopped = false;
  const update: { -readonly [K in keyof MarketUpdate]: MarketUpdate[K] } = { instrument: '', ts: 0, ltp: 0 };

  const feedTick = (t: TickEvent): void => {
    if (t.ts > clock.now()) clock.advanceTo(t.ts);
    openSession(t.ts);
    update.instrument = t.instrument;
    update.ts = t.ts;
    update.ltp = t.ltp;
    // The top of the book only, at any size: a recording holds no depth, and taking the top's
    // quantity as all there is would leave a larger order resting at its protection price (live
    // it walks the book a tick or two). Such differences show as different fills in the diff.
    update.bid = t.bid;
    update.ask = t.ask;
    matching.onMarket(update);
    lastPrices.set(t.instrument, t.ltp);
    market++;
    ticks++;
    engine.publishTick(t);
  };
  const feedCandle = (c: CandleEvent): void => {
    if (c.ts > clock.now()) clock.advanceTo(c.ts);
    market++;
    candles++;
    engine.publishCandle(c);
  };
  const operator = (e: Event): void => {
    if (e.type === 'trading-state') {
      if (!ENGINE_REASONS.has(e.reason) && engine.tradingState() !== e.to) {
        if (e.ts > clock.now()) clock.advanceTo(e.ts);
        engine.setTradingState(e.to, e.reason);
      }
    } else if (e.type === 'lifecycle' && e.source === 'daemon') {
      if (e.ts > clock.now()) clock.advanceTo(e.ts);
      if (e.phase === 'session_close') runAction(e.detail);
      else if (e.phase === 'stopping') {
        // No market data after this: strategies stop deciding while the stop action runs.
        runAction(o.onStop ?? 'none');
        stopped = true;
      }
    }
  };
  const runAction = (action: string | undefined): void => {
    if (action === 'cancel') engine.execution.cancelAll();
    else if (action === 'flatten') engine.execution.flattenAll('operator');
  };

  await engine.start();
  // The strategies warm up on the history candles the session warmed them up with (the daemon
  // feeds them after start, before market data; they are not bus events).
  if (replay && o.recording.header.warmup.length > 0) engine.feedWarmup(o.recording.header.warmup as CandleEvent[]);
  const t0 = performance.now();
  for await (const batch of o.recording.batches) {
    for (let k = 0; k < batch.length; k++) {
      const r = batch[k]!;
      const e = r.event;
      o.onRecorded?.(r, market);
      if (stopped) continue;
      if (e.type === 'tick') {
        firstTs ??= e.ts;
        lastTs = e.ts;
        feedTick(e);
        const minute = Math.floor(e.ts / MINUTE_MS);
        if (minute !== lastMinute) {
          lastMinute = minute;
          curve.record(e.ts, account.equity(), account.openPositions() > 0);
        }
      } else if (e.type === 'candle') {
        if (replay) feedCandle(e);
      } else if (replay) operator(e);
    }
  }
  const replayMs = performance.now() - t0;
  if (lastTs !== undefined) curve.record(Math.max(lastTs, clock.now()), account.equity(), account.openPositions() > 0);
  engine.flushCandles();
  await engine.stop();
  venue.close();
  return {
    decisions,
    denials,
    firstOrder,
    lastOrder,
    fillEvents,
    fillMarket,
    fills,
    curve: freeze(curve),
    startingCash: o.cash,
    ticks,
    candles,
    marketEvents: market,
    firstTs,
    lastTs,
    lastPrices,
    alerts,
    intradayExitTags: engine.intradayExit?.tags ?? new Set(),
    replayMs,
    instruments: [...ids],
    engine,
  };
}
