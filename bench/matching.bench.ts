/**
 * Matching engine and market model speed: in-process order placements per second, candle-driven
 * fills per second, and the time to generate a 3,000-instrument trading day (issue 3: < 10 s).
 */
import type { BenchResult } from './run.js';
import { VirtualClock } from '../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../src/core/instruments.js';
import { istDateTime } from '../src/core/time.js';
import { CandleDriver, MatchingEngine, noCharges } from '../src/adapters/simulator/matching/index.js';
import { MarketModel, syntheticSpec } from '../src/adapters/simulator/market/index.js';

export const name = 'simulator matching + market';

const OPEN = istDateTime('2026-11-20', '09:15');
const CLOSE = istDateTime('2026-11-20', '15:30');

function equity(n: number): Instrument {
  return {
    id: `NSE_${1000 + n}`,
    exchange: 'NSE',
    segment: 'EQUITY',
    securityId: String(1000 + n),
    kind: 'EQUITY',
    tradingSymbol: `SYM${n}`,
    symbol: `SYM${n}`,
    lotSize: 1,
    tickSize: 5,
  };
}

function placements(): BenchResult {
  const inst = Array.from({ length: 50 }, (_, i) => equity(i));
  const clock = new VirtualClock(OPEN);
  const engine = new MatchingEngine({
    instruments: new InstrumentTable(inst),
    clock,
    accountOptions: { openingBalance: 1e13, charges: noCharges },
  });
  for (const i of inst) engine.onMarket({ instrument: i.id, ts: OPEN, ltp: 100_000, bid: 99_995, ask: 100_000, bidQty: 500, askQty: 500 });
  const N = 200_000;
  const t0 = performance.now();
  for (let k = 0; k < N; k++) {
    const i = inst[k % inst.length]!;
    // A mix: resting limits far from the market, marketable limits, market orders.
    const m = k % 4;
    if (m === 0) engine.placeOrder({ instrument: i.id, side: 'BUY', qty: 1, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' });
    else if (m === 1) engine.placeOrder({ instrument: i.id, side: 'SELL', qty: 1, orderType: 'LIMIT', limitPrice: 99_990, validity: 'IOC', product: 'INTRADAY' });
    else engine.placeOrder({ instrument: i.id, side: m === 2 ? 'BUY' : 'SELL', qty: 1, orderType: 'LIMIT', limitPrice: m === 2 ? 90_000 : 110_000, validity: 'DAY', product: 'INTRADAY', remarks: `t${k}` });
    if (k % 1000 === 999) {
      // Keep the book realistic: cancel the resting orders every so often.
      for (const o of engine.workingOrders(i.id)) engine.cancelOrder(o.orderId);
    }
  }
  const s = (performance.now() - t0) / 1000;
  return { metric: 'order placements/s (in-process, mixed types)', value: N / s, unit: 'orders/s', target: 5_000, note: 'the HTTP target; in-process must be far above' };
}

/** One equity, a virtual clock at the open and an engine matched only by the candle driver. */
function candleWorld() {
  const inst = equity(0);
  const clock = new VirtualClock(OPEN);
  const engine = new MatchingEngine({
    instruments: new InstrumentTable([inst]),
    clock,
    matchOnArrival: false,
    accountOptions: { openingBalance: 1e13, charges: noCharges },
  });
  const driver = new CandleDriver(engine, { bothTouched: 'pessimistic' });
  return { inst, clock, engine, driver };
}

function candleFills(): BenchResult {
  const { inst, clock, engine, driver } = candleWorld();
  const N = 200_000;
  let price = 100_000;
  let fills = 0;
  engine.subscribe((e) => {
    if (e.type === 'fill') fills++;
  });
  const t0 = performance.now();
  for (let k = 0; k < N; k++) {
    const start = OPEN + k * 60_000;
    const o = price;
    const c = o + ((k * 7919) % 41) * 5 - 100;
    const hi = Math.max(o, c) + 50;
    const lo = Math.min(o, c) - 50;
    driver.playCandle({ instrument: inst.id, start, ts: start + 60_000, open: o, high: hi, low: lo, close: c, volume: 10_000 });
    clock.advanceTo(start + 60_000);
    price = c;
    // Alternate: a market order, then a resting limit at the close.
    engine.placeOrder(
      k % 2 === 0
        ? { instrument: inst.id, side: k % 4 === 0 ? 'BUY' : 'SELL', qty: 10, orderType: 'MARKET', validity: 'DAY', product: 'INTRADAY' }
        : { instrument: inst.id, side: 'BUY', qty: 10, orderType: 'LIMIT', limitPrice: c - 25, validity: 'IOC', product: 'INTRADAY' },
    );
  }
  const s = (performance.now() - t0) / 1000;
  return { metric: 'candle-driven fills/s (1 order per candle)', value: fills / s, unit: 'fills/s', note: `${N} candles in ${s.toFixed(2)} s, ${fills} fills` };
}

function candlesWithStandingStop(): BenchResult {
  const { inst, engine, driver } = candleWorld();
  engine.onMarket({ instrument: inst.id, ts: OPEN, ltp: 100_000 });
  // A stop far below the market: every candle is played as a full path, nothing fills.
  engine.placeOrder({ instrument: inst.id, side: 'SELL', qty: 1, orderType: 'STOP_LOSS', triggerPrice: 50_000, validity: 'DAY', product: 'INTRADAY' });
  const N = 500_000;
  const t0 = performance.now();
  for (let k = 0; k < N; k++) {
    const start = OPEN + k * 60_000;
    const o = 100_000 + ((k * 7919) % 41) * 5;
    driver.playCandle({ instrument: inst.id, start, ts: start + 60_000, open: o, high: o + 100, low: o - 100, close: o + 50, volume: 10_000 });
  }
  const s = (performance.now() - t0) / 1000;
  return { metric: 'candles/s through the driver with a working stop', value: N / s, unit: 'candles/s', note: 'full 4-point path per candle' };
}

function marketDay(): BenchResult[] {
  const inst = Array.from({ length: 3000 }, (_, i) => equity(i));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const model = new MarketModel(
    inst.map((i) => syntheticSpec(i, 42)),
    { seed: 42, sessionOpen: OPEN },
  );
  let ticks = 0;
  for (let t = OPEN; t <= CLOSE; t += 1000) model.advanceEach(t, () => ticks++);
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1e6;
  return [
    {
      metric: 'market day, 3,000 instruments (2 s tick interval)',
      value: s,
      unit: 's',
      target: 10,
      lowerIsBetter: true,
      note: `${ticks.toLocaleString('en-US')} ticks, ${cpu.toFixed(2)} s CPU`,
    },
    { metric: 'market ticks generated/s', value: ticks / s, unit: 'ticks/s' },
  ];
}

export async function run(): Promise<BenchResult[]> {
  return [placements(), candleFills(), candlesWithStandingStop(), ...marketDay()];
}
