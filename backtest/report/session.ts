/**
 * A recorded paper or live session (`events-YYYY-MM-DD.jsonl`, read through the one recording
 * reader) turned into the backtest report's input, so `tarang report` draws the same page as a
 * backtest (price with fills, equity and drawdown, breakdowns, charges), plus what only a session
 * has: every order with its final status, the denials, the alerts and whether each was resolved,
 * and the P&L through the day.
 *
 * Money: the cash at start is the funds the venue showed once the engine had reconciled (the
 * embedded simulator's capital for a paper session; otherwise the header's `funds`, available plus
 * the margin in use when recorded). Fills without recorded
 * charges (the paper venue and the broker's order stream book none: the contract note does) are
 * priced by the chosen charges preset (`auto` by default), as a backtest prices them, and the
 * report says so. Equity is cash plus open positions marked at their last recorded price, sampled
 * once a minute of market time and after every fill. Price bars are minute bars made from the
 * recorded ticks (the strategies' candles when ticks were not recorded).
 */
import type { AlertLevel, DenialCode, Event, OrderSnapshot } from '../../src/core/events.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import { formatInr, type Paise } from '../../src/core/money.js';
import { openRecording, type RecordingSource } from '../../src/engine/recording/reader.js';
import type { RecordingHeader } from '../../src/engine/recording/format.js';
import { isBrokerSquareOff } from '../../src/risk/rules/square-off.js';
import { itemiseCharges } from '../backtest.js';
import { chargeModel } from '../charges/charge-preset.js';
import { seriesFromRows, type CandleRow, type CandleSeries } from '../data/candle-series.js';
import { TickBars } from '../data/tick-bars.js';
import { EquityRecorder, freeze } from '../metrics/equity-curve.js';
import { computeMetrics } from '../metrics/performance.js';
import { pairTrades, type FillRecord, type FillVia } from '../metrics/trades.js';
import type { BacktestReportInput } from './backtest-result.js';

export interface SessionOrder {
  readonly tag: string;
  /** When the engine first showed it (epoch ms) and when it last changed. */
  readonly placed: number;
  readonly updated: number;
  readonly order: OrderSnapshot;
  /** Order events recorded for it. */
  readonly updates: number;
  readonly line: number;
}

export interface SessionDenial {
  readonly code: DenialCode;
  readonly reason: string;
  readonly count: number;
  readonly first: number;
  readonly last: number;
  readonly strategies: readonly string[];
}

export interface SessionAlert {
  readonly ts: number;
  readonly level: AlertLevel;
  readonly code: string;
  readonly message: string;
  /** Alerts that have an all-clear: when it came; null when it never did; undefined for alerts without one. */
  readonly resolvedAt: number | null | undefined;
  readonly line: number;
}

export interface PnlPoint {
  readonly ts: number;
  /** Net of charges: equity minus the cash at start. */
  readonly pnl: Paise;
  /** Open positions at their last price minus their cost (average cost). */
  readonly unrealized: Paise;
  readonly charges: Paise;
}

export interface SessionReport {
  readonly source: string;
  readonly header: RecordingHeader;
  readonly report: BacktestReportInput;
  readonly orders: readonly SessionOrder[];
  readonly denials: readonly SessionDenial[];
  readonly alerts: readonly SessionAlert[];
  readonly pnl: readonly PnlPoint[];
  readonly ticks: number;
  readonly firstTs: number | undefined;
  readonly lastTs: number | undefined;
  /** Fills as recorded (charges absent when the venue booked none). */
  readonly recordedCharges: boolean;
  readonly notes: readonly string[];
}

/**
 * An alert and the code that clears it, matched on the context key named (the same connection,
 * the same instrument) when the alert carries one.
 */
const RESOLVED_BY: Readonly<Record<string, { readonly code: string; readonly key?: string }>> = {
  DISCONNECTED: { code: 'RECONNECTED', key: 'source' },
  TRADING_HALTED: { code: 'TRADING_RESUMED' },
  KILL_SWITCH: { code: 'TRADING_RESUMED' },
  POSITION_MISMATCH: { code: 'POSITION_MISMATCH_RESOLVED', key: 'instrument' },
  STORE_DISCONNECTED: { code: 'STORE_RECONNECTED' },
};

export interface SessionReadOptions {
  /** Charges preset for fills without recorded charges: `auto` (default), `none`, a preset name or a YAML path. */
  readonly charges?: string;
  /** Read a recording whose last line is torn up to the line before. */
  readonly allowTruncated?: boolean;
}

type Row = { -readonly [K in keyof CandleRow]: CandleRow[K] };

export async function readSession(source: RecordingSource, o: SessionReadOptions = {}): Promise<SessionReport> {
  const notes: string[] = [];
  const rec = await openRecording(source, { torn: o.allowTruncated ? 'skip' : 'error', onTorn: (line) => notes.push(`line ${line} is torn (the process stopped while writing it): read up to the line before`) });
  const h = rec.header;
  const instruments = new InstrumentTable(h.instruments as Instrument[]);
  const model = chargeModel(o.charges ?? 'auto');
  const paper = h.config.paper as { capital?: unknown; simulator?: unknown } | undefined;
  // The embedded simulator's capital is the paper account's opening balance, exactly. Otherwise the
  // funds read at start: available plus the margin in use when the venue gave it (orders placed
  // before the funds were read, a burst at the first tick, already hold margin that is still the
  // account's money).
  const capital = h.mode === 'paper' && paper?.simulator === 'embedded' && typeof paper.capital === 'number' ? paper.capital : undefined;
  const start: Paise = capital ?? (h.funds ? h.funds.available + (h.funds.used ?? 0) : 0);
  if (capital === undefined && h.funds === undefined) notes.push('no funds recorded at start: the cash at start is taken as ₹0 (returns are n/a)');
  else if (capital === undefined && h.funds?.used === undefined) notes.push(`the cash at start is the funds available when the engine had reconciled (${formatInr(start)}); margin already in use then is not in it`);
  if (h.positions.length > 0) notes.push(`${h.positions.length} position(s) were open at the start (carried over); the report counts only this session's fills`);

  const ticks = new TickBars();
  const candles = new Map<string, { interval: string; rows: Row[] }>();
  const last = new Map<string, Paise>();
  const orders = new Map<string, { placed: number; updated: number; order: OrderSnapshot; updates: number; line: number }>();
  const exitTags = new Set<string>();
  const fills: FillRecord[] = [];
  const denials = new Map<string, { code: DenialCode; reason: string; count: number; first: number; last: number; strategies: Set<string> }>();
  const alerts: Array<{ ts: number; level: AlertLevel; code: string; message: string; resolvedAt: number | null | undefined; line: number; key: unknown }> = [];
  const pnl: PnlPoint[] = [];
  const curve = new EquityRecorder();
  const pos = new Map<string, { qty: number; cost: number }>();
  let cash = start;
  let charges = 0;
  let recordedCharges = 0;
  let tickCount = 0;
  let firstTs: number | undefined;
  let lastTs: number | undefined;
  let sampledMinute = -1;

  const sample = (ts: number): void => {
    let value = 0;
    let unrealized = 0;
    let exposed = false;
    for (const [i, p] of pos) {
      if (p.qty === 0) continue;
      exposed = true;
      const ltp = last.get(i);
      const v = ltp === undefined ? p.cost : p.qty * ltp;
      value += v;
      unrealized += v - p.cost;
    }
    const equity = cash + value;
    // Two samples at one instant (a fill and the minute): the later one stands.
    if (curve.length > 0 && curve.ts[curve.length - 1] === ts) {
      curve.length--;
      pnl.pop();
    }
    curve.record(ts, equity, exposed);
    pnl.push({ ts, pnl: Math.round(equity - start), unrealized: Math.round(unrealized), charges });
  };

  const observe = (e: Event, line: number): void => {
    switch (e.type) {
      case 'tick': {
        tickCount++;
        last.set(e.instrument, e.ltp);
        ticks.add(e);
        const minute = e.ts - (e.ts % 60_000);
        if (minute > sampledMinute) {
          sampledMinute = minute;
          sample(e.ts);
        }
        return;
      }
      case 'candle': {
        let c = candles.get(e.instrument);
        if (!c) candles.set(e.instrument, (c = { interval: e.interval, rows: [] }));
        if (c.interval === e.interval && (c.rows.length === 0 || e.start > c.rows[c.rows.length - 1]!.start)) {
          c.rows.push({ start: e.start, ts: e.ts, open: e.open, high: e.high, low: e.low, close: e.close, volume: e.volume });
        }
        if (!ticks.has(e.instrument)) last.set(e.instrument, e.close);
        return;
      }
      case 'intent':
        if (e.intent.kind === 'exit') exitTags.add(e.intent.id);
        return;
      case 'order': {
        const prev = orders.get(e.order.tag);
        if (prev) {
          prev.order = e.order;
          prev.updated = e.ts;
          prev.updates++;
        } else orders.set(e.order.tag, { placed: e.ts, updated: e.ts, order: e.order, updates: 1, line });
        return;
      }
      case 'fill': {
        const order = orders.get(e.tag)?.order;
        const via: FillVia = isBrokerSquareOff(e.tag)
          ? 'square-off'
          : order?.leg === 'stopLoss'
            ? order.modifications > 0
              ? 'trailing'
              : 'stop-loss'
            : order?.leg === 'target'
              ? 'target'
              : exitTags.has(e.tag) || (order?.parentTag !== undefined && exitTags.has(order.parentTag))
                ? 'square-off'
                : 'signal';
        let c: Paise = 0;
        if (e.charges !== undefined) {
          c = e.charges;
          recordedCharges++;
        } else {
          const instrument = instruments.get(e.instrument);
          if (instrument) {
            const b = model.priced({ instrument, side: e.side, qty: e.qty, price: e.price, product: e.product }, e.ts).charges;
            c = b.brokerage + b.totalCharges;
          }
        }
        fills.push({ ts: e.ts, instrument: e.instrument, side: e.side, qty: e.qty, price: e.price, charges: c, tag: e.tag, orderId: e.orderId ?? '', product: e.product, strategyId: e.strategyId, via });
        const sign = e.side === 'BUY' ? 1 : -1;
        cash -= sign * e.qty * e.price + c;
        charges += c;
        const p = pos.get(e.instrument) ?? { qty: 0, cost: 0 };
        const q = sign * e.qty;
        if (p.qty === 0 || Math.sign(p.qty) === sign) {
          p.qty += q;
          p.cost += q * e.price;
        } else if (Math.abs(q) <= Math.abs(p.qty)) {
          p.cost -= Math.round((p.cost * -q) / p.qty);
          p.qty += q;
          if (p.qty === 0) p.cost = 0;
        } else {
          p.qty += q;
          p.cost = p.qty * e.price;
        }
        pos.set(e.instrument, p);
        if (!last.has(e.instrument)) last.set(e.instrument, e.price);
        sample(e.ts);
        return;
      }
      case 'denied': {
        const key = `${e.code}\u0000${e.reason}`;
        const d = denials.get(key);
        if (d) {
          d.count++;
          d.last = e.ts;
          d.strategies.add(e.intent.strategyId);
        } else denials.set(key, { code: e.code, reason: e.reason, count: 1, first: e.ts, last: e.ts, strategies: new Set([e.intent.strategyId]) });
        return;
      }
      case 'alert': {
        const key = (c: string): unknown => (RESOLVED_BY[c]?.key ? e.context?.[RESOLVED_BY[c]!.key!] : undefined);
        for (const a of alerts) {
          const rule = RESOLVED_BY[a.code];
          if (a.resolvedAt === null && rule?.code === e.code && (rule.key === undefined || a.key === undefined || a.key === e.context?.[rule.key])) a.resolvedAt = e.ts;
        }
        alerts.push({ ts: e.ts, level: e.level, code: e.code, message: e.message, resolvedAt: RESOLVED_BY[e.code] ? null : undefined, line, key: key(e.code) });
        return;
      }
      default:
        return;
    }
  };

  for await (const batch of rec.batches) {
    for (const { line, event } of batch) {
      if (event.type === 'tick' || event.type === 'candle' || event.type === 'fill') {
        if (firstTs === undefined || event.ts < firstTs) firstTs = event.ts;
        if (lastTs === undefined || event.ts > lastTs) lastTs = event.ts;
      }
      observe(event, line);
    }
  }
  if (lastTs !== undefined && (curve.length === 0 || curve.ts[curve.length - 1]! < lastTs)) sample(lastTs);
  if (rec.laterSessions() > 0) notes.push(`${rec.laterSessions()} later session(s) follow in the same file (the daemon restarted): this report covers the first, up to line ${rec.lastLine()}`);
  if (fills.length > 0 && recordedCharges < fills.length) {
    const how = model.name === 'none' ? 'left at ₹0 (--charges none)' : `priced by the ${model.name} charges preset`;
    notes.push(`${fills.length - recordedCharges} of ${fills.length} fills carry no charges in the recording (the broker books them on the contract note): ${how}`);
  }
  for (const [i, p] of pos) if (p.qty !== 0 && !last.has(i)) notes.push(`${i}: open at the end with no recorded price; marked at cost`);

  const series: CandleSeries[] = [];
  series.push(...ticks.series());
  for (const [id, c] of candles) if (!ticks.has(id) && c.rows.length > 0) series.push(seriesFromRows(id, c.interval as CandleSeries['interval'], c.rows));
  const { trades, open } = pairTrades(fills);
  const frozen = freeze(curve);
  const metrics = computeMetrics({ curve: frozen, startingCash: start, trades, chargesPaid: charges, fills: fills.length, ...(firstTs !== undefined ? { firstStart: firstTs } : {}) });
  const byCode: Record<string, number> = {};
  let denied = 0;
  for (const d of denials.values()) {
    byCode[d.code] = (byCode[d.code] ?? 0) + d.count;
    denied += d.count;
  }
  const ids = h.strategies.map((s) => s.id);
  const report: BacktestReportInput = {
    run: {
      strategy: h.strategies.length === 1 ? h.strategies[0]!.strategy : `${h.strategies.length} strategies`,
      strategyId: ids.join(', ') || '(none)',
      params: h.strategies.length === 1 && typeof h.strategies[0]!.params === 'object' && h.strategies[0]!.params !== null ? (h.strategies[0]!.params as Record<string, unknown>) : {},
      charges: recordedCharges === fills.length && fills.length > 0 ? 'as recorded' : model.name,
      chargesLastChecked: [...new Set(model.presets.map((p) => `${p.name} ${p.lastChecked}`))],
      bothTouched: 'n/a (venue fills)',
      slippageTicks: 0,
      trailing: 'venue',
      marketProtectionPct: typeof h.config.risk['marketProtectionPct'] === 'number' ? h.config.risk['marketProtectionPct'] : 0,
    },
    sources: [],
    candles: series.reduce((a, s) => a + s.length, 0),
    fills,
    trades,
    open,
    curve: frozen,
    metrics,
    denials: { count: denied, byCode, first: [...denials.values()].slice(0, 20).map((d) => ({ ts: d.first, code: d.code, reason: d.reason })) },
    alerts: alerts.map((a) => ({ ts: a.ts, code: a.code, message: a.message })),
    series,
    chargeTotals: itemiseCharges(model, instruments, fills),
  };
  return {
    source: rec.source,
    header: h,
    report,
    orders: [...orders.values()].sort((a, b) => a.placed - b.placed || a.line - b.line).map((x) => ({ tag: x.order.tag, placed: x.placed, updated: x.updated, order: x.order, updates: x.updates, line: x.line })),
    denials: [...denials.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((d) => ({ code: d.code, reason: d.reason, count: d.count, first: d.first, last: d.last, strategies: [...d.strategies] })),
    alerts: alerts.map(({ key: _key, ...a }) => a),
    pnl,
    ticks: tickCount,
    firstTs,
    lastTs,
    recordedCharges: recordedCharges === fills.length,
    notes,
  };
}
