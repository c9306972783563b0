/**
 * orb-smart through the backtester (`backtest/runner.ts`: the daemon's engine with risk and
 * execution, the simulator's matching engine as venue), on hand-made candles and on real
 * HDFCBANK minute candles from ../shared/data.
 */
import { describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '../../../src/core/events.js';
import { InstrumentTable } from '../../../src/core/instruments.js';
import { istDate } from '../../../src/core/time.js';
import type { Strategy } from '../../../src/strategies/strategy.js';
import { orbSmart, orbSmartParams, type OrbSmartParamsInput } from '../../../src/strategies/orb-smart/index.js';
import { runBacktest, type BacktestRun, type BacktestSettings } from '../../../backtest/runner.js';
import { chargeModel } from '../../../backtest/charges/index.js';
import { seriesFromRows, type CandleSeries } from '../../../backtest/data/candle-series.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import type { RiskConfigInput } from '../../../src/risk/config.js';
import { sharedData } from '../../support/shared-data.js';
import { HDFCBANK, flat, minuteCandles, type Ohlc } from './candles.js';

const I = HDFCBANK.id;
const DAY = '2023-04-03';
const RANGE: Ohlc[] = [[1605, 1610, 1601, 1606], ...flat(1605, 13), [1605, 1606, 1600, 1604]];

function series(bars: readonly Ohlc[], day = DAY): CandleSeries {
  const rows = minuteCandles(I, day, '09:15', bars).map(({ start, ts, open, high, low, close, volume }) => ({ start, ts, open, high, low, close, volume }));
  return seriesFromRows(I, '1minute', rows);
}

/** Records every order snapshot the strategy is shown, so tests can follow a leg's trigger. */
function spy(s: Strategy): { strategy: Strategy; orders: OrderSnapshot[] } {
  const orders: OrderSnapshot[] = [];
  const strategy: Strategy = {
    instruments: s.instruments,
    ...(s.intervals ? { intervals: s.intervals } : {}),
    ...(s.warmup !== undefined ? { warmup: s.warmup } : {}),
    onStart: (ctx) => s.onStart?.(ctx),
    onCandle: (c, ctx) => s.onCandle?.(c, ctx),
    onTick: (t, ctx) => s.onTick?.(t, ctx),
    onFill: (f, ctx) => s.onFill?.(f, ctx),
    onPosition: (p, ctx) => s.onPosition?.(p, ctx),
    onStop: (ctx) => s.onStop?.(ctx),
    onOrder: (o, ctx) => {
      orders.push(o);
      s.onOrder?.(o, ctx);
    },
  };
  return { strategy, orders };
}

async function backtest(
  data: readonly CandleSeries[],
  params: Partial<OrbSmartParamsInput>,
  o: Partial<BacktestSettings> & { risk?: RiskConfigInput } = {},
): Promise<{ run: BacktestRun; orders: OrderSnapshot[] }> {
  const p = orbSmartParams.parse({ instrument: I, qty: 10, ...params });
  const instruments = new InstrumentTable([HDFCBANK]);
  const { strategy, orders } = spy(orbSmart.create(p, { id: 'orb-1', instruments }));
  const run = await runBacktest({
    series: data,
    instruments,
    strategies: [{ id: 'orb-1', strategy }],
    charges: chargeModel('none'),
    cash: 10_000_000_00,
    ...o,
  });
  return { run, orders };
}

describe('orb-smart in the backtester', () => {
  it('a trailing stop moves with the price and then holds until it is hit (venue ignoring is_tsl)', async () => {
    const bars: Ohlc[] = [
      ...RANGE,
      [1609, 1612.5, 1609, 1612], // 09:30 closes above 1610: BUY trigger 1612.05, stop 1600
      [1612, 1613, 1611.5, 1612.8], // 09:31 the entry triggers at 1612.05
      [1613, 1620.5, 1612.5, 1620], // best 1620.50: stop 1600 + 8 x 1.00
      [1620, 1630.2, 1619, 1629], // best 1630.20: stop 1618.00
      [1629, 1629.5, 1621, 1622], // the price turns: the stop holds at 1618.00
      [1622, 1623, 1610, 1611], // and is hit
      ...flat(1611, 3),
    ];
    const { run, orders } = await backtest([series(bars)], { trailingStep: 1, targetMode: 'points', targetValue: 100 }, { trailing: 'emulated' });
    const stops = orders.filter((o) => o.leg === 'stopLoss');
    const triggers = [...new Set(stops.map((o) => o.triggerPrice))];
    expect(triggers).toEqual([160000, 160800, 161800]);
    expect(stops.at(-1)).toMatchObject({ status: 'FILLED', triggerPrice: 161800, modifications: 2 });
    expect(run.fills.map((f) => [f.side, f.qty, f.price])).toEqual([
      ['BUY', 10, 161205],
      ['SELL', 10, 161800],
    ]);
    expect(run.denials.count).toBe(0);
  });

  it('the real risk layer denies a leg on the wrong side with the broker message, and nothing trades', async () => {
    const bars: Ohlc[] = [...RANGE, [1609, 1621, 1609, 1620], ...flat(1621, 5)];
    const { run } = await backtest([series(bars)], { targetMode: 'range', targetValue: 0.5 });
    expect(run.denials.count).toBe(1);
    expect(run.denials.first[0]).toMatchObject({ code: 'SMART_LEG_BOUND', reason: 'Target trigger price should be greater than 1620.05' });
    expect(run.fills).toEqual([]);
  });

  it('with the leg-bound check switched off, the simulated venue refuses the same order with the same message', async () => {
    const bars: Ohlc[] = [...RANGE, [1609, 1621, 1609, 1620], ...flat(1621, 5)];
    const checks = ['tradingState', 'instrument', 'lotSize', 'tickSize', 'circuit', 'modificationCap', 'maxOrderValue', 'maxPosition', 'maxOpenOrders', 'orderRate', 'funds', 'dailyLoss'] as const;
    const { run, orders } = await backtest([series(bars)], { targetMode: 'range', targetValue: 0.5 }, { risk: { checks: [...checks] } });
    const refused = orders.find((o) => o.status === 'REJECTED');
    const reason = refused?.reason ?? run.denials.first[0]?.reason;
    expect(reason).toContain('Target trigger price should be greater than 1620.05');
    expect(run.fills).toEqual([]);
  });
});

const shared = sharedData();

describe.skipIf(!shared.available)('orb-smart on real HDFCBANK minute candles (April-May 2023)', () => {
  const load = (): CandleSeries[] => [...loadCsvCandles(shared.path('nse-minute/HDFCBANK_2023_1min.csv'), { instrument: I }).series];

  it('trades at most once per direction a day, is flat at every close, and gives the same fills twice', async () => {
    const data = load();
    expect(data[0]?.length).toBeGreaterThan(14_000);
    const params = { qty: 10, rangeMinutes: 15, trailingStep: 2, exitTime: '15:10' } as const;
    const a = await backtest(data, params, { trailing: 'emulated' });
    const b = await backtest(data, params, { trailing: 'emulated' });
    expect(JSON.stringify(b.run.fills)).toBe(JSON.stringify(a.run.fills));

    const fills = a.run.fills;
    expect(fills.length).toBeGreaterThan(20);
    const byDay = new Map<string, typeof fills>();
    for (const f of fills) byDay.set(istDate(f.ts), [...(byDay.get(istDate(f.ts)) ?? []), f]);
    for (const [day, dayFills] of byDay) {
      const net = dayFills.reduce((n, f) => n + (f.side === 'BUY' ? f.qty : -f.qty), 0);
      expect(net, `net position at the close of ${day}`).toBe(0);
    }
    // An entry is the first fill of a smart order (its legs carry the same remarks tag and fill
    // later): at most one BUY entry and one SELL entry a day.
    const parents = new Set(a.orders.filter((o) => o.leg === 'entry').map((o) => o.tag));
    const seen = new Set<string>();
    const entriesPerDay = new Map<string, string[]>();
    for (const f of fills) {
      if (!parents.has(f.tag) || seen.has(f.tag)) continue;
      seen.add(f.tag);
      entriesPerDay.set(istDate(f.ts), [...(entriesPerDay.get(istDate(f.ts)) ?? []), f.side]);
    }
    expect(entriesPerDay.size).toBeGreaterThan(10);
    for (const [day, sides] of entriesPerDay) {
      expect(sides.filter((x) => x === 'BUY').length, `long entries on ${day}`).toBeLessThanOrEqual(1);
      expect(sides.filter((x) => x === 'SELL').length, `short entries on ${day}`).toBeLessThanOrEqual(1);
    }
    // The trail moved stops, within its budget of modifications per leg.
    const legMods = a.orders.filter((o) => o.leg === 'stopLoss').map((o) => o.modifications);
    expect(Math.max(...legMods)).toBeGreaterThan(0);
    expect(Math.max(...legMods)).toBeLessThanOrEqual(20);
    expect(a.run.denials.byCode['SMART_LEG_BOUND'] ?? 0).toBe(0);
  });
});
