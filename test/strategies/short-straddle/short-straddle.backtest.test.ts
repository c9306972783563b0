/**
 * short-straddle through the backtester on last year's weeklies: expired expiries -> expired
 * contracts -> their minute candles (spec 4.5, 4.9), all from the simulator's data side, replayed
 * by the daemon's engine over the simulator's matching engine. And local greeks checked against
 * the simulator's own option chain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { istDate, istDateTime } from '../../../src/core/time.js';
import { OptionChainService } from '../../../src/adapters/simulator/options/index.js';
import { NIFTY, TODAY, history, lastWeekly, universe, type Week } from './expired-week.js';
import { shortStraddle, shortStraddleParams } from '../../../src/strategies/short-straddle/index.js';
import { OptionDataFeed, chainFromWire, legGreeks, withOptionData, type OptionStrategy } from '../../../src/strategies/options/index.js';
import { runBacktest, type BacktestRun } from '../../../backtest/runner.js';
import { chargeModel } from '../../../backtest/charges/index.js';

async function backtest(w: Week, params: Record<string, unknown> = {}): Promise<{ run: BacktestRun; inner: OptionStrategy }> {
  const p = shortStraddleParams.parse({ underlyingInstrument: NIFTY.instrument.id, ...params });
  const inner = shortStraddle.create(p, { id: 'straddle-1', instruments: w.instruments }) as OptionStrategy;
  const strategy = withOptionData(inner, new OptionDataFeed(), { contracts: w.contracts });
  const run = await runBacktest({ series: w.series, instruments: w.instruments, strategies: [{ id: 'straddle-1', strategy }], charges: chargeModel('none'), cash: 50_000_000_00, trailing: 'emulated' });
  return { run, inner };
}

describe('short-straddle in the backtester, on expired weekly contracts', () => {
  let week: Week;
  beforeAll(() => {
    week = lastWeekly();
  });

  it('sells the ATM pair of the expiring weekly after 09:20, one lot each from the master, and is flat by the exit time', async () => {
    // Stops far away (this day's put trebles by midday), so both legs live to the exit time.
    const { run } = await backtest(week, { stopLossPercent: 900 });
    const sells = run.fills.filter((f) => f.side === 'SELL');
    expect(sells).toHaveLength(2);
    const [a, b] = sells;
    // Same strike and expiry, one call and one put; the lot size is the contract's.
    expect(a!.instrument.slice(0, -2)).toBe(b!.instrument.slice(0, -2));
    expect(new Set(sells.map((f) => f.instrument.slice(-2)))).toEqual(new Set(['CE', 'PE']));
    const lot = week.instruments.get(a!.instrument)!.lotSize;
    expect(sells.every((f) => f.qty === lot)).toBe(true);
    // Sold with marketable limits placed at 09:20 (never before), bought back after 15:15.
    expect(sells.every((f) => f.ts >= istDateTime(week.day, '09:20') && f.ts < istDateTime(week.day, '15:15'))).toBe(true);
    const buys = run.fills.filter((f) => f.side === 'BUY');
    expect(buys).toHaveLength(2);
    expect(buys.every((f) => f.ts >= istDateTime(week.day, '15:15'))).toBe(true);
    // The ATM strike is the one nearest the index at entry.
    const strike = week.instruments.get(a!.instrument)!.strike!;
    const nearest = [...new Set(week.contracts.map((c) => c.strike_price! * 100))].sort((x, y) => Math.abs(x - strike) - Math.abs(y - strike));
    expect(nearest[0]).toBe(strike);
    expect(run.denials.count).toBe(0);
  });

  it('a tight stop-loss buys back the leg that runs against it, at or above its trigger', async () => {
    const { run } = await backtest(week, { stopLossPercent: 5, stopLimitBufferPercent: 0 });
    const sells = run.fills.filter((f) => f.side === 'SELL');
    expect(sells).toHaveLength(2);
    const stopped = run.fills.filter((f) => f.side === 'BUY' && f.ts < istDateTime(week.day, '15:15'));
    expect(stopped.length).toBeGreaterThan(0);
    for (const s of stopped) {
      const sold = sells.find((f) => f.instrument === s.instrument)!;
      expect(s.price).toBeGreaterThanOrEqual(Math.ceil((sold.price * 1.05) / 5) * 5);
    }
    const net = new Map<string, number>();
    for (const f of run.fills) net.set(f.instrument, (net.get(f.instrument) ?? 0) + (f.side === 'BUY' ? f.qty : -f.qty));
    expect([...net.values()].every((n) => n === 0)).toBe(true);
  });

  it('gives the same fills on a second run', async () => {
    const a = await backtest(week);
    const b = await backtest(week);
    expect(JSON.stringify(b.run.fills)).toBe(JSON.stringify(a.run.fills));
    expect(istDate(a.run.fills[0]!.ts)).toBe(week.day);
  });
});

describe('local greeks against the simulator option chain', () => {
  it('implied volatility and delta computed from the chain prices match the chain greeks near the money', () => {
    const now = istDateTime(TODAY, '11:00');
    const chains = new OptionChainService({ universe, history, clock: new VirtualClock(now) });
    const expiry = universe.currentExpiries('NIFTY')[0]!;
    const r = chains.chain({ exchange: 'NSE', segment: 'INDEX', 'underlying-scrip': NIFTY.instrument.securityId, expiry, strike_count: '3' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const chain = chainFromWire(r.data, { underlying: 'NIFTY', underlyingInstrument: NIFTY.instrument.id, ts: now, exchange: 'NSE', contract: () => ({ lotSize: 75, tickSize: 5 }) });
    expect(chain.strikes).toHaveLength(7);
    let compared = 0;
    for (const row of chain.strikes) {
      for (const q of [row.ce, row.pe]) {
        if (!q?.greeks || q.ltp === undefined) continue;
        const { greeks: broker, ...bare } = q;
        const local = legGreeks(bare, chain.spot, now, { rate: 0.065 });
        expect(local?.source).toBe('local');
        // Prices are rounded to the 0.05 tick, so the solved volatility differs by a hair.
        expect(Math.abs(local!.iv - broker.iv)).toBeLessThan(0.003);
        expect(Math.abs(local!.delta - broker.delta)).toBeLessThan(0.01);
        compared++;
      }
    }
    expect(compared).toBe(14);
  });
});
