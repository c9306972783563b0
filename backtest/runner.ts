/**
 * The backtest runner: the daemon's engine (bus, strategies behind the safe runner, risk, order
 * state machine, portfolio) on a VirtualClock, against the simulated venue (the simulator's
 * matching engine in-process, candles played through its CandleDriver).
 *
 * One step per candle close time T (candles of several instruments closing at T form a group):
 *   1. session bookkeeping: a new IST day opens a session (after expiring the previous one if the
 *      data ended early that day);
 *   2. the group's candles are played through the matching engine as price paths (open, extremes,
 *      close): orders placed on earlier candles fill here, and only here;
 *   3. at or after a segment's intraday square-off time (15:20 equity, 15:25 F&O by default;
 *      risk/rules/square-off.ts) the broker squares INTRADAY positions off, as the simulator does:
 *      open INTRADAY orders cancelled, positions closed at the last price of that minute; a day
 *      whose data ends earlier is squared off at its last candle. At or after 15:30 IST the
 *      session closes: DAY and IOC orders expire. No INTRADAY position is carried overnight;
 *   4. the clock moves to T and the candles are published on the bus: strategies see them now,
 *      and what they order can only fill on a later group (the engine's `matchOnArrival: false`
 *      plus an order's creation time after every price point already played);
 *   5. the equity (cash + marked positions, charges paid) is sampled.
 * There is no API through which a strategy could read a later candle: the data arrays live here,
 * the strategy gets only published events and its context.
 *
 * Daily and longer candles: each candle is a session. After it is played its DAY orders expire,
 * and the session is opened again at once (same date, nothing rolls) so that what a strategy sends
 * on day N's close is a regular order working through day N+1's candle: a MARKET order fills at
 * day N+1's open, a DAY limit that day N+1 does not reach expires at its close, and smart orders
 * can be placed (they cannot be AMOs). INTRADAY positions are squared off at each candle's close.
 */
import { sliceRoot } from '../src/adapters/execution/tags.js';
import { z } from 'zod';
import { isIntraday } from '../src/core/candles.js';
import { isTerminalStatus } from '../src/core/enums.js';
import { VirtualClock } from '../src/core/clock.js';
import { ConfigError } from '../src/core/errors.js';
import { DenialCode, type CandleEvent, type DeniedEvent, type IntentEvent } from '../src/core/events.js';
import type { InstrumentLookup } from '../src/core/instruments.js';
import type { Logger } from '../src/core/log.js';
import { silentLogger } from '../src/core/silent-log.js';
import type { Paise } from '../src/core/money.js';
import { DAY_MS, IST_OFFSET_MS, MINUTE_MS } from '../src/core/time.js';
import { SESSION_CLOSE_MINUTE } from '../src/core/candles.js';
import type { StrategySpec } from '../src/engine/engine-options.js';
import type { RiskConfigInput } from '../src/risk/config.js';
import type { ExecutionConfigInput } from '../src/adapters/execution/config.js';
import { CandleDriver, MatchingEngine, type BothTouchedRule, type CandleInput } from '../src/adapters/simulator/matching/index.js';
import type { ChargeModel } from './charges/charge-preset.js';
import type { CandleSeries } from './data/candle-series.js';
import { mergeSeries, type MergedOrder } from './data/merge.js';
import { Engine } from '../src/engine/engine.js';
import { EquityRecorder, freeze, type EquityCurve } from './metrics/equity-curve.js';
import type { FillRecord, FillVia } from './metrics/trades.js';
import { BacktestVenue } from './venue.js';
import { formatZodIssues } from '../src/core/zod-issues.js';
import { defaultMarketProtectionPct } from '../src/risk/rules/market-protection.js';
import { SESSION_OPEN_MINUTE } from '../src/core/candles.js';
import { IntradayExitAtInput, SquareOffTimesInput, squareOffSegment, squareOffTimes, squareOffWithin, type SquareOffSegment, type SquareOffTimes } from '../src/risk/rules/square-off.js';

export const BacktestSettingsSchema = z
  .object({
    /** Starting cash, paise. */
    cash: z.number().int().positive(),
    bothTouched: z.enum(['pessimistic', 'optimistic', 'ohlc-path']).default('pessimistic'),
    /** Ticks of adverse slippage on market-like fills. */
    slippageTicks: z.number().int().min(0).default(0),
    /** Share of each candle's volume our orders may take (partial fills); absent = unlimited. */
    participationRate: z.number().positive().max(1).optional(),
    /**
     * MARKET orders work as LIMIT at the last price +/- this percentage, as on the live service
     * (wire-gaps); a gap wider than this at the next open leaves the order unfilled there.
     */
    marketProtectionPct: z.number().positive().max(100).default(() => defaultMarketProtectionPct()),
    /** `native`: the matching engine trails stop-loss legs; `emulated`: the engine does, by modifying (as live). */
    trailing: z.enum(['native', 'emulated']).default('native'),
    /** The broker's intraday square-off, `HH:MM` per segment over config/market-rules/square-off.yaml. */
    squareOff: SquareOffTimesInput.optional(),
    /** The engine's own intraday exit: `off`, `HH:MM`, or per segment (default 5 minutes before the square-off). */
    intradayExitAt: IntradayExitAtInput.optional(),
    /** F&O orders above the freeze quantity are placed in slices (`execution.autoSlice`) instead of being denied. */
    autoSlice: z.boolean().optional(),
  })
  .strict();
export type BacktestSettings = z.input<typeof BacktestSettingsSchema>;

export interface BacktestInput extends BacktestSettings {
  readonly series: readonly CandleSeries[];
  readonly instruments: InstrumentLookup;
  readonly strategies: readonly StrategySpec[];
  readonly charges: ChargeModel;
  readonly risk?: RiskConfigInput;
  readonly execution?: ExecutionConfigInput;
  readonly log?: Logger;
  /** Called every `progressEvery` candles and at the end. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
}

export interface DenialSummary {
  readonly count: number;
  /** Count per denial code. */
  readonly byCode: Readonly<Record<string, number>>;
  /** The first few, for the report. */
  readonly first: ReadonlyArray<{ readonly ts: number; readonly code: string; readonly reason: string }>;
}

export interface BacktestRun {
  readonly candles: number;
  readonly fills: readonly FillRecord[];
  readonly curve: EquityCurve;
  readonly startingCash: Paise;
  readonly firstStart?: number;
  readonly lastTs?: number;
  readonly denials: DenialSummary;
  /** Alerts raised during the run (a strategy paused after throwing, the kill switch): the first 50. */
  readonly alerts: ReadonlyArray<{ readonly ts: number; readonly code: string; readonly message: string }>;
  /** Wall time of the replay alone (bench figure), ms. */
  readonly replayMs: number;
  readonly instruments: readonly string[];
  /** Tags of the engine's intraday-exit orders (a trade they close ends for that reason). */
  readonly intradayExitTags: ReadonlySet<string>;
  /** The broker's square-off and the engine's exit (undefined: off), minutes of the IST day per segment. */
  readonly squareOff: SquareOffTimes;
  readonly intradayExitAt: SquareOffTimes | undefined;
}

/**
 * V8 note: a candle's prices come out of Float64Arrays, and an object field that first receives
 * such a number is given a "double" representation, which boxes every value in a separate heap
 * number (five extra allocations per candle event, ~80 MB over a million candles). Two events of
 * the runner's exact shapes with `undefined` in those fields make V8 keep them tagged instead, so
 * whole-number paise are stored inline. Kept alive so the shapes' maps are never collected.
 */
export const TAGGED_CANDLE_FIELDS: ReadonlyArray<Readonly<Record<string, unknown>>> = [
  { type: 'candle', ts: undefined, instrument: '', interval: '', start: undefined, open: undefined, high: undefined, low: undefined, close: undefined, volume: undefined },
  { type: 'candle', ts: undefined, instrument: '', interval: '', start: undefined, open: undefined, high: undefined, low: undefined, close: undefined, volume: undefined, oi: undefined },
];

function sessionCloseOf(ts: number): number {
  return Math.floor((ts + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS + SESSION_CLOSE_MINUTE * MINUTE_MS;
}

interface ReplayParts {
  readonly series: readonly CandleSeries[];
  /** The merged time line of several series; undefined for one series (candle i is step i). */
  readonly order: MergedOrder | undefined;
  readonly total: number;
  readonly firstStart: number;
  readonly clock: VirtualClock;
  readonly matching: MatchingEngine;
  readonly driver: CandleDriver;
  readonly engine: Engine;
  readonly recorder: EquityRecorder;
  readonly ids: readonly string[];
  readonly intraday: boolean;
  /** Segments of the replayed instruments that the broker squares off. */
  readonly segments: readonly SquareOffSegment[];
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly every: number;
  /** One mutable input reused for every candle played: the driver reads it and keeps nothing. */
  readonly played: { -readonly [K in keyof CandleInput]-?: CandleInput[K] };
}

const NO_STEPS = new Uint32Array(0);

/** Close time of step `k` of the time line. */
function tsAt(p: ReplayParts, k: number): number {
  const o = p.order;
  return o === undefined ? p.series[0]!.ts[k]! : p.series[o.series[k]!]!.ts[o.index[k]!]!;
}

/** End of the group of steps closing at `T` that starts at `i` (candles of several instruments closing together). */
function groupEnd(p: ReplayParts, i: number, T: number): number {
  let j = i + 1;
  while (j < p.total && tsAt(p, j) === T) j++;
  return j;
}

/** Step 2 for one candle: its price path through the matching engine. */
function playCandle(p: ReplayParts, s: CandleSeries, c: number, start: number, T: number): void {
  const played = p.played;
  played.instrument = s.instrument;
  played.start = start;
  played.ts = T;
  played.open = s.open[c]!;
  played.high = s.high[c]!;
  played.low = s.low[c]!;
  played.close = s.close[c]!;
  played.volume = s.volume[c]!;
  p.driver.playCandle(played);
}

/** Steps 4 and 5 for the group [i, j) closing at `T`: strategies see the candles, then the equity is sampled. */
function publishGroup(p: ReplayParts, i: number, j: number, T: number): void {
  const { clock, engine } = p;
  if (T > clock.now()) clock.advanceTo(T);
  const one = p.order === undefined ? p.series[0] : undefined;
  const seriesOf = p.order?.series ?? NO_STEPS;
  const indexOf = p.order?.index ?? NO_STEPS;
  for (let g = i; g < j; g++) {
    const s = one ?? p.series[seriesOf[g]!]!;
    const c = one ? g : indexOf[g]!;
    // Two literal shapes (with and without OI) keep the event objects monomorphic; their fields
    // stay tagged (TAGGED_CANDLE_FIELDS).
    const ev: CandleEvent = s.oi
      ? { type: 'candle', ts: T, instrument: s.instrument, interval: s.interval, start: s.start[c]!, open: s.open[c]!, high: s.high[c]!, low: s.low[c]!, close: s.close[c]!, volume: s.volume[c]!, oi: s.oi[c]! }
      : { type: 'candle', ts: T, instrument: s.instrument, interval: s.interval, start: s.start[c]!, open: s.open[c]!, high: s.high[c]!, low: s.low[c]!, close: s.close[c]!, volume: s.volume[c]! };
    engine.publishCandle(ev);
  }
  const account = p.matching.account;
  let exposed = false;
  if (account.openPositions() > 0) {
    const ids = p.ids;
    for (let k = 0; k < ids.length && !exposed; k++) exposed = account.netQty(ids[k]!) !== 0;
  }
  p.recorder.record(T, account.equity(), exposed);
}

/**
 * The common stretch of an intraday session, steps 2, 4 and 5 only: from step `i`, every group
 * whose candles all start within the session's day [dayStart, dayEnd), that closes before `stopT`
 * (the next square-off or the close, while the session is open) and that ends before step
 * `stopAt` (the next progress report). Returns the first step it did not play. Nothing rare
 * happens here (the rest of replay() does it, one group at a time), so V8 optimises this loop
 * once and never meets code in it that has not run yet (which cost several recompiles of the
 * whole loop when it was one function).
 */
function playStretch(p: ReplayParts, i: number, stopT: number, dayStart: number, dayEnd: number, stopAt: number): number {
  const { clock, total } = p;
  const one = p.order === undefined ? p.series[0] : undefined;
  const seriesOf = p.order?.series ?? NO_STEPS;
  const indexOf = p.order?.index ?? NO_STEPS;
  while (i < total) {
    const T = tsAt(p, i);
    if (T >= stopT) break;
    const j = one ? (i + 1 < total && one.ts[i + 1]! === T ? groupEnd(p, i, T) : i + 1) : groupEnd(p, i, T);
    if (j >= stopAt) break;
    let sameDay = true;
    for (let g = i; g < j && sameDay; g++) {
      const start = one ? one.start[g]! : p.series[seriesOf[g]!]!.start[indexOf[g]!]!;
      sameDay = start >= dayStart && start < dayEnd;
    }
    if (!sameDay) break;
    for (let g = i; g < j; g++) {
      const s = one ?? p.series[seriesOf[g]!]!;
      const c = one ? g : indexOf[g]!;
      const start = s.start[c]!;
      if (start > clock.now()) clock.advanceTo(start);
      playCandle(p, s, c, start, T);
    }
    publishGroup(p, i, j, T);
    i = j;
  }
  return i;
}

/**
 * The replay loop (steps 1-5 of the file comment); returns the last close time. A plain function
 * of its own, apart from the async set-up around it, so that V8 compiles the hot loop early and
 * small (a cold run is what the CLI and the bench pay). The hot loop itself is playStretch; this
 * one takes the groups where something happens (a new day, a square-off, the close, a progress
 * report, daily candles).
 */
function replay(p: ReplayParts): number {
  const { series, total, firstStart, clock, matching, intraday, segments, onProgress, every } = p;
  let sessionOpen = false;
  // The session's IST day [dayStart, dayEnd) and its 15:30 close, recomputed only when the day changes.
  let dayStart = Infinity;
  let dayEnd = -Infinity;
  let closeAt = Infinity;
  let lastT = firstStart;
  // The day's square-offs still to come, in time order (step 3).
  let squareOffs: { segment: SquareOffSegment; at: number }[] = [];
  let nextSquareOff = Infinity;
  const squareOffRest = (ts: number): void => {
    for (const q of squareOffs) matching.squareOff(q.segment, ts);
    squareOffs = [];
    nextSquareOff = Infinity;
  };
  const seriesOf = p.order?.series ?? NO_STEPS;
  const indexOf = p.order?.index ?? NO_STEPS;
  const one = p.order === undefined ? series[0] : undefined;
  let nextProgress = onProgress ? every : Infinity;
  let i = 0;
  while (i < total) {
    if (intraday) {
      const from = i;
      i = playStretch(p, i, sessionOpen ? Math.min(nextSquareOff, closeAt) : Infinity, dayStart, dayEnd, nextProgress);
      if (i > from) lastT = tsAt(p, i - 1);
      if (i >= total) break;
    }
    const T = tsAt(p, i);
    // The group of candles closing at T is the run [i, j) of the time line.
    const j = groupEnd(p, i, T);

    // 1-2. Sessions, then the group's price paths through the matching engine.
    for (let g = i; g < j; g++) {
      const s = one ?? series[seriesOf[g]!]!;
      const c = one ? g : indexOf[g]!;
      const start = s.start[c]!;
      if (!(start >= dayStart && start < dayEnd)) {
        if (sessionOpen && intraday) {
          squareOffRest(lastT);
          matching.expireSession(lastT);
        }
        if (start > clock.now()) clock.advanceTo(start);
        matching.openSession(start);
        sessionOpen = true;
        dayStart = Math.floor((start + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
        dayEnd = dayStart + DAY_MS;
        closeAt = sessionCloseOf(start);
        if (intraday) {
          const open = closeAt - (SESSION_CLOSE_MINUTE - SESSION_OPEN_MINUTE) * MINUTE_MS;
          const times = matching.squareOffTimes;
          squareOffs = segments.map((segment) => ({ segment, at: squareOffWithin(times[segment], open, closeAt) })).sort((a, b) => a.at - b.at);
          nextSquareOff = squareOffs.length > 0 ? squareOffs[0]!.at : Infinity;
        }
      } else if (start > clock.now()) clock.advanceTo(start);
      playCandle(p, s, c, start, T);
    }
    // 3. The broker's square-offs due by T, then the close: DAY and IOC orders expire before
    // anyone sees the last candle.
    if (T >= nextSquareOff && sessionOpen) {
      if (T > clock.now()) clock.advanceTo(T);
      while (squareOffs.length > 0 && T >= squareOffs[0]!.at) matching.squareOff(squareOffs.shift()!.segment, T);
      nextSquareOff = squareOffs.length > 0 ? squareOffs[0]!.at : Infinity;
    }
    if (intraday && sessionOpen && T >= closeAt) {
      if (T > clock.now()) clock.advanceTo(T);
      squareOffRest(T);
      matching.expireSession(T);
      sessionOpen = false;
    } else if (!intraday) {
      if (T > clock.now()) clock.advanceTo(T);
      for (const segment of segments) matching.squareOff(segment, T);
      matching.expireSession(T);
      matching.openSession(T);
    }
    // 4-5. Strategies see the candles; the equity at the close of T.
    publishGroup(p, i, j, T);
    lastT = T;
    i = j;
    if (i >= nextProgress) {
      onProgress!(i, total);
      nextProgress = (Math.floor(i / every) + 1) * every;
    }
  }
  if (intraday && sessionOpen) {
    squareOffRest(lastT);
    matching.expireSession(lastT);
  }
  return lastT;
}

export async function runBacktest(input: BacktestInput): Promise<BacktestRun> {
  const parsed = BacktestSettingsSchema.safeParse({
    cash: input.cash,
    bothTouched: input.bothTouched,
    slippageTicks: input.slippageTicks,
    participationRate: input.participationRate,
    // One value for matching and risk: the backtest's own setting, else risk's (market-protection.ts).
    marketProtectionPct: input.marketProtectionPct ?? input.risk?.marketProtectionPct,
    trailing: input.trailing,
    squareOff: input.squareOff,
    intradayExitAt: input.intradayExitAt,
    autoSlice: input.autoSlice,
  });
  if (!parsed.success) {
    throw new ConfigError(`backtest options: ${formatZodIssues(parsed.error)}`, {});
  }
  const settings = parsed.data;
  const series = input.series;
  if (series.length === 0 || series.every((s) => s.length === 0)) throw new ConfigError('backtest: no candles to replay', {});
  // One series is its own time line (a million steps of index arrays saved).
  const order = series.length > 1 ? mergeSeries(series) : undefined;
  const first = order ? series[order.series[0]!]! : series[0]!;
  const firstStart = first.start[order ? order.index[0]! : 0]!;
  const clock = new VirtualClock(firstStart - 1);
  const log = input.log ?? silentLogger();

  const brokerSquareOff = squareOffTimes(settings.squareOff);
  const matching = new MatchingEngine({
    instruments: input.instruments,
    clock,
    squareOffTimes: brokerSquareOff,
    matchOnArrival: false,
    slippageTicks: settings.slippageTicks,
    marketProtectionPct: settings.marketProtectionPct,
    tsl: settings.trailing === 'native' ? 'on' : 'off',
    sessionOpen: false,
    accountOptions: { openingBalance: settings.cash, charges: input.charges.calculator(() => clock.now()) },
  });
  const driver = new CandleDriver(matching, {
    bothTouched: settings.bothTouched as BothTouchedRule,
    ...(settings.participationRate !== undefined ? { participationRate: settings.participationRate } : {}),
  });
  const fills: FillRecord[] = [];
  // Who sent each tag (intents are published before their orders reach the venue), and which
  // tags are exit intents: with the fill's order (leg, trailing) they say why a trade ended.
  // Only tags that can still fill are kept (see `settled`): a long run places tens of thousands
  // of orders, and maps that grow with them cost a cache miss or more per lookup.
  const strategyOfTag = new Map<string, string>();
  const exitTags = new Set<string>();
  // A plain order's fills all come before its final state; a smart order's legs (its remarks) and
  // an auto-sliced order's slices (`<tag>.s<n>`, looked up by the root tag) fill later, and stay.
  const settled = (tag: string): void => {
    strategyOfTag.delete(tag);
    exitTags.delete(tag);
  };
  matching.subscribe((e) => {
    if (e.type === 'order') {
      const o = e.order;
      if (o.smartOrderId === undefined && isTerminalStatus(o.status)) settled(o.remarks);
      return;
    }
    if (e.type !== 'fill') return;
    const t = e.trade;
    const o = e.order;
    const via: FillVia =
      o.leg === 'stopLoss'
        ? (o.isTsl && settings.trailing === 'native') || o.modifications > 0
          ? 'trailing'
          : 'stop-loss'
        : o.leg === 'target'
          ? 'target'
          : exitTags.has(t.remarks)
            ? 'square-off'
            : 'signal';
    // A slice of an auto-sliced order (`<tag>.s<n>`) belongs to the intent of its root tag.
    const strategyId = strategyOfTag.get(t.remarks) ?? strategyOfTag.get(sliceRoot(t.remarks));
    fills.push({ ts: t.ts, instrument: t.instrument, side: t.side, qty: t.qty, price: t.price, charges: t.charges, tag: t.remarks, orderId: t.orderId, product: t.product, via, ...(strategyId !== undefined ? { strategyId } : {}) });
  });
  const venue = new BacktestVenue(matching, { nativeTrailing: settings.trailing === 'native', clock });
  // The daemon's own engine; candles are fed whole (the replay builds none from ticks), and
  // backtest tags read `bt<run>-<seq>`.
  const engine = await Engine.create({
    clock,
    venue,
    instruments: input.instruments,
    strategies: input.strategies,
    log,
    risk: { ...input.risk, marketProtectionPct: settings.marketProtectionPct },
    ...(input.execution || settings.autoSlice !== undefined ? { execution: { ...input.execution, ...(settings.autoSlice !== undefined ? { autoSlice: settings.autoSlice } : {}) } } : {}),
    buildCandles: false,
    tagPrefix: 'bt',
    squareOffTimes: brokerSquareOff,
    ...(settings.intradayExitAt !== undefined ? { intradayExitAt: settings.intradayExitAt } : {}),
  });
  engine.bus.on('intent', (ev: IntentEvent) => {
    const i = ev.intent;
    if (i.kind === 'place' || i.kind === 'smart' || i.kind === 'exit') strategyOfTag.set(i.id, i.strategyId);
    if (i.kind === 'exit') exitTags.add(i.id);
  });
  const denials = { count: 0, byCode: {} as Record<string, number>, first: [] as Array<{ ts: number; code: string; reason: string }> };
  engine.bus.on('denied', (d: DeniedEvent) => {
    // A denied intent places nothing (an execution error may have placed part of it: kept).
    if (d.code !== DenialCode.EXECUTION_ERROR) settled(d.intent.id);
    denials.count++;
    denials.byCode[d.code] = (denials.byCode[d.code] ?? 0) + 1;
    if (denials.first.length < 20) denials.first.push({ ts: d.ts, code: d.code, reason: d.reason });
  });

  const alerts: Array<{ ts: number; code: string; message: string }> = [];
  // Alerts: a strategy paused after throwing, the kill switch, ...
  engine.bus.on('alert', (a) => {
    if (alerts.length < 50) alerts.push({ ts: a.ts, code: a.code, message: a.message });
  });

  const intraday = series.some((s) => isIntraday(s.interval));
  const ids = series.map((s) => s.instrument);
  const segments = [...new Set(ids.map((id) => input.instruments.get(id)).flatMap((i) => (i ? [squareOffSegment(i)] : [])))].filter((x): x is SquareOffSegment => x !== undefined);
  const total = order ? order.length : first.length;
  // One series: a sample per candle, at its close (the recorder shares the series' times).
  const recorder = new EquityRecorder(total / Math.max(1, series.length) + 16, series.length === 1 ? first.ts : undefined);
  const every = input.progressEvery ?? 100_000;

  await engine.start();
  const t0 = performance.now();
  const played = { instrument: '', start: 0, ts: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  const lastT = replay({ series, order, total, firstStart, clock, matching, driver, engine, recorder, ids, intraday, segments, onProgress: input.onProgress, every, played });
  const replayMs = performance.now() - t0;
  await engine.stop();
  venue.close();
  input.onProgress?.(total, total);
  return {
    candles: total,
    fills,
    curve: freeze(recorder),
    startingCash: settings.cash,
    firstStart,
    lastTs: lastT,
    denials,
    alerts,
    replayMs,
    instruments: ids,
    intradayExitTags: engine.intradayExit?.tags ?? new Set(),
    squareOff: brokerSquareOff,
    intradayExitAt: engine.intradayExit?.times,
  };
}
