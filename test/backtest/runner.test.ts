import { describe, expect, it } from 'vitest';
import { formatIst, istDateTime } from '../../src/core/time.js';
import type { CandleSeries } from '../../backtest/data/candle-series.js';
import { buildJsonReport, jsonText } from '../../backtest/report/backtest-result.js';
import { limit, market, minuteSeries, newScript, stop, type Script } from './support/scripted.js';
import { DAY, riseThenFallDay, risingDay, runScripted, smartBuy } from './support/run-scripted.js';
import { seriesFromRows } from '../../backtest/data/candle-series.js';

const t = (hm: string): number => istDateTime(DAY, hm);

const run = runScripted;

const fillsOf = (out: Awaited<ReturnType<typeof run>>) => out.run.fills.map((f) => [formatIst(f.ts).slice(11, 16), f.side, f.qty, f.price]);

describe('backtest fills on a hand-made series (checked by hand)', () => {
  const series = (): CandleSeries[] => [
    minuteSeries('NSE_1', DAY, [
      ['09:15', 100, 101, 99, 100.5],
      ['09:16', 101, 102, 100, 101.5],
      ['09:17', 102, 103, 98, 99],
      ['09:18', 99, 99.5, 97, 98],
      ['09:19', 98.5, 100, 97.5, 99.5],
    ]),
  ];

  it('MARKET at the next open, LIMIT on the range, a gap through a limit at the open, a stop at its trigger', async () => {
    const script = newScript({
      'NSE_1@09:15': [market('NSE_1', 'BUY', 10, 'INTRADAY')], // seen 09:16 -> fills at the 09:16 bar's open 101.00
      'NSE_1@09:16': [limit('NSE_1', 'SELL', 10, 102.5, 'INTRADAY')], // the 09:17 bar reaches 103 -> 102.50
      'NSE_1@09:18': [limit('NSE_1', 'BUY', 5, 99, 'INTRADAY'), stop('NSE_1', 'SELL', 5, 97.9, 'INTRADAY')], // 09:19 opens 98.50 below 99 -> 98.50; low 97.50 -> stop at 97.90
    });
    const out = await run(series(), script);
    expect(fillsOf(out)).toEqual([
      ['09:16', 'BUY', 10, 10_100],
      ['09:17', 'SELL', 10, 10_250],
      ['09:19', 'BUY', 5, 9_850],
      ['09:19', 'SELL', 5, 9_790],
    ]);
    // +1.50 x 10 - 0.60 x 5 = +12.00 rupees on 10,000.
    expect(out.metrics.finalEquity).toBe(1_000_000 + 1_500 - 300);
    expect(out.report.trades.map((x) => [x.direction, x.qty, x.grossPnl])).toEqual([
      ['long', 10, 1_500],
      ['long', 5, -300],
    ]);
    expect(out.metrics.winRate).toBe(0.5);
    expect(out.metrics.profitFactor).toBe(5);
  });

  it('partial fills take at most the given share of each candle\'s volume', async () => {
    const s = [
      minuteSeries('NSE_1', DAY, [
        ['09:15', 100, 101, 99, 100, 1000],
        ['09:16', 100.5, 101, 100, 100.5, 200],
        ['09:17', 101, 101.5, 100.5, 101, 300],
        ['09:18', 101, 101.5, 100.5, 101, 1000],
      ]),
    ];
    const out = await run(s, newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 50)] }), { participationRate: 0.1 });
    // 10% of 200 = 20 at 09:16's open, the other 30 (10% of 300) at 09:17's open.
    expect(fillsOf(out)).toEqual([
      ['09:16', 'BUY', 20, 10_050],
      ['09:17', 'BUY', 30, 10_100],
    ]);
  });

  it('an IOC limit that the next bar does not reach is gone; it does not fill later', async () => {
    const ioc = { ...limit('NSE_1', 'BUY', 10, 99), validity: 'IOC' as const };
    const day = { ...limit('NSE_1', 'BUY', 10, 99) };
    // The 09:16 bar (100-102) misses 99; the 09:17 bar reaches 98.
    expect(fillsOf(await run(series(), newScript({ 'NSE_1@09:15': [ioc] })))).toEqual([]);
    expect(fillsOf(await run(series(), newScript({ 'NSE_1@09:15': [day] })))).toEqual([['09:17', 'BUY', 10, 9_900]]);
  });

  it('slippage in ticks worsens market fills', async () => {
    const out = await run(series(), newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 10)] }), { slippageTicks: 2 });
    expect(fillsOf(out)).toEqual([['09:16', 'BUY', 10, 10_110]]);
  });

  it('a DAY order expires at the session close and an order sent after the close fills at the next open', async () => {
    const s = [
      minuteSeries('NSE_1', DAY, [
        ['15:28', 100, 100.5, 99.5, 100],
        ['15:29', 100, 100.5, 99.5, 100],
      ]),
    ];
    const next = minuteSeries('NSE_1', '2024-01-03', [['09:15', 102, 103, 101.5, 102.5]]);
    const all: CandleSeries = {
      ...s[0]!,
      length: 3,
      start: Float64Array.from([...s[0]!.start, ...next.start]),
      ts: Float64Array.from([...s[0]!.ts, ...next.ts]),
      open: Float64Array.from([...s[0]!.open, ...next.open]),
      high: Float64Array.from([...s[0]!.high, ...next.high]),
      low: Float64Array.from([...s[0]!.low, ...next.low]),
      close: Float64Array.from([...s[0]!.close, ...next.close]),
      volume: Float64Array.from([...s[0]!.volume, ...next.volume]),
    };
    const script = newScript({
      'NSE_1@15:28': [limit('NSE_1', 'BUY', 1, 90)], // never reached, expires at 15:30
      'NSE_1@15:29': [market('NSE_1', 'BUY', 3)], // seen at 15:30, after the close: AMO -> next open
    });
    const out = await run([all], script);
    expect(out.run.fills.map((f) => [formatIst(f.ts), f.qty, f.price])).toEqual([['2024-01-03T09:15:00.000+05:30', 3, 10_200]]);
  });

  it('charges from a preset are booked on every fill, exactly as computed by hand', async () => {
    const s = [
      minuteSeries('NSE_1', '2025-01-15', [
        ['09:15', 1000, 1001, 999, 1000],
        ['09:16', 1000, 1005, 999, 1004],
        ['09:17', 1010, 1012, 1008, 1011],
        ['09:18', 1011, 1012, 1010, 1011],
      ]),
    ];
    const script = newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 100)], 'NSE_1@09:16': [market('NSE_1', 'SELL', 100)] });
    const out = await run(s, script, { charges: 'equity-intraday', cash: 100_000_000 });
    // Buy 100 @ 1000.00 and sell 100 @ 1010.00: charges 30.22 and 52.51 (see charge-preset.test.ts).
    expect(out.run.fills.map((f) => [f.price, f.charges])).toEqual([
      [100_000, 3_022],
      [101_000, 5_251],
    ]);
    expect(out.metrics.chargesPaid).toBe(8_273);
    expect(out.metrics.finalEquity).toBe(100_000_000 + 100_000 - 8_273);
    expect(out.report.trades[0]).toMatchObject({ grossPnl: 100_000, charges: 8_273, netPnl: 91_727 });
  });
});

describe('no look-ahead', () => {
  // Every move happens as a gap between one bar's close and the next bar's open; bars are flat.
  // Within the 3% MARKET protection band of the live service (wire-gaps), so MARKET orders fill at the open.
  const zigzag = (): CandleSeries[] => [
    minuteSeries(
      'NSE_1',
      DAY,
      Array.from({ length: 20 }, (_, i) => {
        const p = i % 2 === 0 ? 100 : 102;
        return [`09:${String(15 + i).padStart(2, '0')}`, p, p, p, p] as const;
      }),
    ),
  ];

  it('a strategy sees a candle only at its close, with nothing newer in any view', async () => {
    const script = newScript({});
    const out = await run(zigzag(), script);
    expect(script.seen).toHaveLength(20);
    for (const s of script.seen) {
      expect(s.now).toBe(s.ts); // the clock says the candle's close, never later
      expect(s.ts - s.start).toBe(60_000);
      expect(s.lastPrice === undefined || s.lastPrice === s.close).toBe(true);
    }
    expect(out.run.candles).toBe(20);
  });

  it('an oracle that knows the next bar and buys on the bar it saw fills at the next open and cannot profit', async () => {
    // Buying on every low bar to sell on the following high bar would earn 2 a share per round
    // trip if orders filled at the close they were sent on. They fill at the next open instead.
    const on: Record<string, ReturnType<typeof market>[]> = {};
    for (let i = 0; i < 19; i++) {
      const key = `NSE_1@09:${String(15 + i).padStart(2, '0')}`;
      on[key] = [market('NSE_1', i % 2 === 0 ? 'BUY' : 'SELL', 10)];
    }
    const out = await run(zigzag(), newScript(on));
    expect(out.run.fills).toHaveLength(19);
    for (const f of out.run.fills) {
      // Each fill is at the open of the bar after the one the order was sent on.
      const barIndex = (f.ts - t('09:15')) / 60_000;
      expect(f.price).toBe(barIndex % 2 === 0 ? 10_000 : 10_200);
    }
    expect(out.metrics.finalEquity).toBeLessThanOrEqual(1_000_000);
    expect(out.report.trades.every((x) => x.grossPnl === -10 * 200)).toBe(true);
  });

  it('a limit at the close it saw does not fill on the next bar, which gaps away; only a later bar that comes back fills it', async () => {
    const out = await run(zigzag(), newScript({ 'NSE_1@09:15': [limit('NSE_1', 'BUY', 10, 100)] }));
    expect(fillsOf(out)).toEqual([['09:17', 'BUY', 10, 10_000]]);
  });
});

describe('several instruments', () => {
  it('merges series in time order and fills each at its own next open', async () => {
    const a = minuteSeries('NSE_1', DAY, [
      ['09:15', 100, 101, 99, 100],
      ['09:16', 102, 103, 101, 102],
      ['09:17', 103, 104, 102, 103],
    ]);
    const b = minuteSeries(
      'NSE_2',
      DAY,
      [
        ['09:15', 50, 51, 49, 50],
        ['09:20', 51, 52, 50.5, 51.5],
      ],
      '5minute',
    );
    const script = newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 1)], 'NSE_2@09:15': [market('NSE_2', 'BUY', 2)] });
    const out = await run([a, b], script);
    expect(script.seen.map((s) => `${s.instrument}@${formatIst(s.ts).slice(11, 16)}`)).toEqual(['NSE_1@09:16', 'NSE_1@09:17', 'NSE_1@09:18', 'NSE_2@09:20', 'NSE_2@09:25']);
    expect(out.run.fills.map((f) => [f.instrument, formatIst(f.ts).slice(11, 16), f.price])).toEqual([
      ['NSE_1', '09:16', 10_200],
      ['NSE_2', '09:20', 5_100],
    ]);
    expect(out.metrics.exposure).toBeGreaterThan(0);
  });
});

describe('smart orders', () => {
  const bars = risingDay;
  const smart = smartBuy(9_900, 10_300);

  it('enters at the next open, then the target fills and the stop-loss is cancelled (OCO)', async () => {
    const out = await run(bars(), newScript({ 'NSE_1@09:15': [smart] }));
    expect(fillsOf(out)).toEqual([
      ['09:16', 'BUY', 10, 10_000],
      ['09:17', 'SELL', 10, 10_300],
    ]);
    expect(out.run.fills).toHaveLength(2);
    expect(out.metrics.finalEquity).toBe(1_000_000 + 3_000);
  });

  it('a bar touching both legs fills the stop when pessimistic, the target when optimistic', async () => {
    const both = [
      minuteSeries('NSE_1', DAY, [
        ['09:15', 100, 100.5, 99.5, 100],
        ['09:16', 100, 100.5, 99.5, 100],
        ['09:17', 100, 104, 98, 100],
        ['09:18', 100, 100.5, 99.5, 100],
      ]),
    ];
    const pess = await run(both, newScript({ 'NSE_1@09:15': [smart] }), { bothTouched: 'pessimistic' });
    expect(fillsOf(pess)[1]).toEqual(['09:17', 'SELL', 10, 9_900]);
    const opt = await run(both, newScript({ 'NSE_1@09:15': [smart] }), { bothTouched: 'optimistic' });
    expect(fillsOf(opt)[1]).toEqual(['09:17', 'SELL', 10, 10_300]);
  });
});

describe('trailing stops', () => {
  const bars = riseThenFallDay;
  const smart = (trailingStep?: number) => smartBuy(9_900, 11_000, trailingStep);
  const go = (step: number | undefined, trailing: 'native' | 'emulated') => run(bars(), newScript({ 'NSE_1@09:15': [smart(step)] }), { trailing });

  it('the stop-loss follows the rise in whole steps and holds when the price turns (native)', async () => {
    // Entry 100.00; the 09:17 high 102.20 is 2.20 above: the stop moves up 4 steps of 0.50 to 101.00,
    // holds through the fall, and fills there when 09:18 drops through it.
    expect(fillsOf(await go(50, 'native'))).toEqual([
      ['09:16', 'BUY', 10, 10_000],
      ['09:18', 'SELL', 10, 10_100],
    ]);
    // Without a trailing step the stop stays at 99.00.
    expect(fillsOf(await go(undefined, 'native'))[1]).toEqual(['09:18', 'SELL', 10, 9_900]);
  });

  it('the engine trails by modifying the leg when the venue does not (emulated, as live), to the same stop', async () => {
    // Stop 98.00, step 0.50: the rise to 101.20 moves it 2 steps to 99.00 (still below the entry,
    // see the report: the venue refuses a modified stop above the entry price).
    const s = [
      minuteSeries('NSE_1', DAY, [
        ['09:15', 100, 100, 100, 100],
        ['09:16', 100, 100.4, 99.9, 100.2],
        ['09:17', 100.5, 101.2, 100.4, 101],
        ['09:18', 100.8, 100.9, 98.5, 98.8],
        ['09:19', 99, 99.5, 98.5, 99],
      ]),
    ];
    const intent = { ...smart(50), stopLoss: { triggerPrice: 9_800 } };
    const one = (trailing: 'native' | 'emulated') => run(s, newScript({ 'NSE_1@09:15': [intent] }), { trailing });
    const emulated = await one('emulated');
    expect(emulated.run.alerts.map((a) => a.code)).toContain('TRAILING_EMULATED');
    expect(fillsOf(emulated)).toEqual([
      ['09:16', 'BUY', 10, 10_000],
      ['09:18', 'SELL', 10, 9_900],
    ]);
    expect(fillsOf(await one('native'))).toEqual(fillsOf(emulated));
  });
});

describe('determinism', () => {
  it('two runs give identical JSON bytes', async () => {
    const make = async (): Promise<string> => {
      const on: Record<string, ReturnType<typeof market>[]> = { 'NSE_1@09:15': [market('NSE_1', 'BUY', 5)], 'NSE_1@09:17': [market('NSE_1', 'SELL', 5)] };
      const s = [
        minuteSeries('NSE_1', DAY, [
          ['09:15', 100, 101, 99, 100.5],
          ['09:16', 101, 102, 100, 101.5],
          ['09:17', 102, 103, 98, 99],
          ['09:18', 99, 99.5, 97, 98],
        ]),
      ];
      const out = await run(s, newScript(on), { charges: 'auto' });
      return jsonText(buildJsonReport(out.report));
    };
    const a = await make();
    const b = await make();
    expect(a).toBe(b);
    expect(JSON.parse(a).fills[0]).toEqual({ time: '2024-01-02T09:16:00.000+05:30', instrument: 'NSE_1', side: 'BUY', qty: 5, price: 101, charges: expect.any(Number), tag: expect.any(String), order_id: expect.any(String) });
  });
});

describe('a strategy that throws', () => {
  it('is paused, the replay goes on, and the report says so', async () => {
    const s = [
      minuteSeries('NSE_1', DAY, [
        ['09:15', 100, 101, 99, 100],
        ['09:16', 100, 101, 99, 100],
        ['09:17', 100, 101, 99, 100],
      ]),
    ];
    const script = newScript({}, (c) => {
      if (c.start === t('09:16')) throw new Error('boom');
    });
    const out = await run(s, script);
    expect(out.run.candles).toBe(3);
    expect(script.seen).toHaveLength(2); // nothing after the throw
    expect(out.run.alerts).toEqual([expect.objectContaining({ code: 'STRATEGY_PAUSED', message: expect.stringContaining('boom') })]);
    expect(buildJsonReport(out.report)['alerts']).toEqual([expect.objectContaining({ code: 'STRATEGY_PAUSED' })]);
  });
});

describe('daily candles', () => {
  const daily = (): CandleSeries[] => {
    const days = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'];
    const bars = [
      [100, 102, 99, 101],
      [101.5, 103, 100.5, 102],
      [102, 104, 101, 103],
      [103, 104, 98, 99],
    ];
    const rows = days.map((d, i) => {
      const start = istDateTime(d, '09:15');
      const [o, h, l, c] = bars[i]!.map((x) => Math.round(x * 100)) as [number, number, number, number];
      return { start, ts: istDateTime(d, '15:30'), open: o, high: h, low: l, close: c, volume: 1_000_000 };
    });
    return [seriesFromRows('NSE_1', '1day', rows)];
  };
  const dailyRun = (script: Script) => run(daily(), script);

  it('a MARKET order sent on a close fills at the next open; a DAY limit the next day misses expires', async () => {
    let sent = false;
    const s2 = newScript({}, (_c, ctx) => {
      if (sent) return;
      sent = true;
      ctx.submit(market('NSE_1', 'BUY', 10));
      ctx.submit(limit('NSE_1', 'SELL', 10, 103.5));
    });
    const out = await dailyRun(s2);
    // Sent on 2024-01-01's close: the BUY fills at 01-02's open 101.50. The SELL limit 103.50 is
    // above 01-02's high (103): it expires at that close and does not fill on 01-03 (high 104).
    expect(out.run.fills.map((f) => [formatIst(f.ts).slice(0, 10), f.side, f.price])).toEqual([['2024-01-02', 'BUY', 10_150]]);
  });

  it('a smart order sent on a daily close works through the next days', async () => {
    let sent = false;
    const s = newScript({}, (_c, ctx) => {
      if (sent) return;
      sent = true;
      ctx.submit({ kind: 'smart', instrument: 'NSE_1', side: 'BUY', qty: 10, entryType: 'MARKET', stopLoss: { triggerPrice: 9_900 }, target: { triggerPrice: 10_350 }, validity: 'DAY', product: 'CNC' });
    });
    const out = await dailyRun(s);
    expect(out.run.fills.map((f) => [formatIst(f.ts).slice(0, 10), f.side, f.price])).toEqual([
      ['2024-01-02', 'BUY', 10_150],
      ['2024-01-03', 'SELL', 10_350],
    ]);
  });
});
