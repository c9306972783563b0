import { describe, expect, it } from 'vitest';
import type { Intent, ModifyIntent, PlaceIntent } from '../../../src/core/intents.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { istDateTime } from '../../../src/core/time.js';
import { shortStraddle, shortStraddleParams, stopTrigger, type ShortStraddleParamsInput } from '../../../src/strategies/short-straddle/index.js';
import { legGreeks } from '../../../src/strategies/options/index.js';
import { SimHarness, type HarnessOptions } from './sim-harness.js';
import { flat, minuteCandles, type Ohlc } from '../orb-smart/candles.js';
import { CE_ATM, DAY, EXPIRIES, NIFTY, OPTIONS, PE_ATM, chain, option, type ChainSpec } from './fixtures.js';

const at = (hhmm: string): number => istDateTime(DAY, hhmm);

function harness(params: Partial<ShortStraddleParamsInput> = {}, o: Partial<HarnessOptions> = {}): SimHarness {
  const p = shortStraddleParams.parse({ entryTime: '09:20', ...params });
  const instruments = o.instruments ?? [NIFTY, ...OPTIONS];
  const h = new SimHarness(shortStraddle.create(p, { id: 'straddle-1', instruments: new InstrumentTable(instruments) }), {
    start: at('09:15'),
    ...o,
    instruments,
  });
  h.start();
  return h;
}

/** Index candles from 09:15 up to (not including) `until`, then the chain at `until`. */
function openAndChain(h: SimHarness, until: string, spec: Partial<ChainSpec> = {}): void {
  const n = (at(until) - at('09:15')) / 60_000;
  for (const c of minuteCandles(NIFTY.id, DAY, '09:15', flat(21710, n))) h.candle(c);
  h.publishChain(chain({ ts: at(until), spot: 2171000, ltp: { '21700CE': 12000, '21700PE': 10000 }, ...spec }), EXPIRIES);
}

/** Option candles minute by minute: the call's, then the put's (`peFirst`: the other way round). */
function legCandles(h: SimHarness, from: string, ce: readonly Ohlc[], pe: readonly Ohlc[], peFirst = false): void {
  const a = minuteCandles(CE_ATM.id, DAY, from, ce);
  const b = minuteCandles(PE_ATM.id, DAY, from, pe);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    for (const c of peFirst ? [b[i], a[i]] : [a[i], b[i]]) if (c) h.candle(c);
  }
}

const places = (h: SimHarness): PlaceIntent[] => h.intents.filter((i): i is PlaceIntent => i.kind === 'place');

describe('short-straddle parameters', () => {
  it('defaults to one lot of the nearest NIFTY expiry from 09:20 to 15:15 with 30% stops', () => {
    const p = shortStraddleParams.parse({});
    expect(p).toMatchObject({ underlying: 'NIFTY', underlyingInstrument: 'NIDX_13', expiry: 'nearest', lots: 1, stopLossPercent: 30, entryTime: 560, exitTime: 915 });
  });

  it('refuses an entry after the exit and a bad expiry, naming the parameter', () => {
    expect(shortStraddleParams.safeParse({ entryTime: '15:20' }).error?.issues[0]?.path).toEqual(['entryTime']);
    expect(shortStraddleParams.safeParse({ expiry: 'next week' }).error?.issues[0]?.path).toEqual(['expiry']);
  });

  it('declares the chain it needs for its entry window only', () => {
    const s = shortStraddle.create(shortStraddleParams.parse({ strikeCount: 3 }), { id: 's', instruments: new InstrumentTable() });
    expect(s).toMatchObject({ instruments: ['NIDX_13'], warmup: 0, optionChains: [{ underlying: 'NIFTY', underlyingInstrument: 'NIDX_13', expiry: 'nearest', strikeCount: 3, fromMinute: 559, untilMinute: 570 }] });
  });
});

describe('short-straddle against the matching engine', () => {
  it('sells the ATM call and put of the nearest weekly at the entry time, lots sized from the instrument master, and places a stop per leg', () => {
    const h = harness({ lots: 2 });
    for (const c of minuteCandles(NIFTY.id, DAY, '09:15', flat(21710, 4))) h.candle(c);
    // A chain before the entry time is only remembered; the 09:19 candle closing at 09:20 trades it.
    const early = chain({ ts: at('09:19'), spot: 2171000 });
    h.publishChain(early, EXPIRIES);
    expect(h.intents).toEqual([]);
    for (const c of minuteCandles(NIFTY.id, DAY, '09:19', flat(21710, 1))) h.candle(c);
    const atm = early.strikes.find((r) => r.strike === 2170000)!;
    const limitOf = (ltp: number): number => Math.floor((ltp * 0.98) / 5) * 5;
    // The chain said 50 a lot; the master is the authority (it says 50 here too: 2 lots = 100).
    // Marketable limits 2% under the quote (no bid in this chain: the last price).
    expect(places(h).map((i) => [i.instrument, i.side, i.qty, i.orderType, i.limitPrice])).toEqual([
      [CE_ATM.id, 'SELL', 100, 'LIMIT', limitOf(atm.ce!.ltp!)],
      [PE_ATM.id, 'SELL', 100, 'LIMIT', limitOf(atm.pe!.ltp!)],
    ]);
    legCandles(h, '09:20', [[120, 121, 118, 119]], [[100, 101, 99, 100.5]]);
    expect(h.trades.map((t) => [t.instrument, t.side, t.price])).toEqual([
      [CE_ATM.id, 'SELL', 12000],
      [PE_ATM.id, 'SELL', 10000],
    ]);
    const stops = places(h).slice(2);
    expect(stops.map((i) => [i.instrument, i.side, i.qty, i.orderType, i.triggerPrice, i.limitPrice])).toEqual([
      [CE_ATM.id, 'BUY', 100, 'STOP_LOSS', 15600, 16380],
      [PE_ATM.id, 'BUY', 100, 'STOP_LOSS', 13000, 13650],
    ]);
    expect(h.ctx.state['straddle']).toMatchObject({ phase: 'entered', expiry: '2024-01-04', strike: 2170000 });
  });

  it('sells at market when entryLimitPercent is 0', () => {
    const h = harness({ entryLimitPercent: 0 });
    openAndChain(h, '09:20');
    expect(places(h).map((i) => [i.orderType, i.limitPrice])).toEqual([
      ['MARKET', undefined],
      ['MARKET', undefined],
    ]);
  });

  it('protects both legs when the engine forgets the filled sales (a finished order is not a denied one)', () => {
    const h = harness({}, { pruneFilled: true });
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119]], [[100, 101, 99, 100.5]]);
    for (const c of minuteCandles(NIFTY.id, DAY, '09:21', flat(21710, 2))) h.candle(c);
    expect(places(h).slice(2).map((i) => [i.instrument, i.side, i.triggerPrice])).toEqual([
      [CE_ATM.id, 'BUY', 15600],
      [PE_ATM.id, 'BUY', 13000],
    ]);
    expect(h.intents.some((i) => i.kind === 'exit')).toBe(false);
  });

  it('takes the lot size from the master when the chain disagrees', () => {
    const h = harness({}, { instruments: [NIFTY, option(21700, 'CE', 25), option(21700, 'PE', 25)] });
    openAndChain(h, '09:20', { chainLotSize: 75 });
    expect(places(h).map((i) => i.qty)).toEqual([25, 25]);
  });

  it('a leg stopped out is bought back at its stop; the other runs to the exit time and is bought back there', () => {
    const h = harness();
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119], [125, 160, 124, 158]], [[100, 101, 99, 100.5], [95, 96, 90, 91]]);
    expect(h.trades.map((t) => [t.instrument, t.side, t.price])).toEqual([
      [CE_ATM.id, 'SELL', 12000],
      [PE_ATM.id, 'SELL', 10000],
      [CE_ATM.id, 'BUY', 15600],
    ]);
    for (const c of minuteCandles(NIFTY.id, DAY, '15:14', flat(21650, 1))) h.candle(c);
    expect(h.intents.at(-1)).toMatchObject({ kind: 'exit', instrument: PE_ATM.id });
    legCandles(h, '15:15', [], [[60, 61, 59, 60]]);
    expect(h.trades.at(-1)).toMatchObject({ instrument: PE_ATM.id, side: 'BUY', qty: 50, price: 6000 });
    expect(h.engine.account.netQty(CE_ATM.id)).toBe(0);
    expect(h.engine.account.netQty(PE_ATM.id)).toBe(0);
    expect(h.engine.workingOrders(PE_ATM.id)).toEqual([]);
    expect(h.ctx.state['straddle']).toMatchObject({ phase: 'done' });
  });

  it('tightens the surviving leg stop to cost when asked (a modify intent the venue accepts)', () => {
    const h = harness({ otherStopToCost: true });
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119], [125, 160, 124, 158]], [[100, 101, 99, 100.5], [95, 96, 90, 91]], true);
    const modify = h.intents.find((i): i is ModifyIntent => i.kind === 'modify');
    const peStop = places(h).find((i) => i.instrument === PE_ATM.id && i.side === 'BUY')!;
    expect(modify).toMatchObject({ target: peStop.id, triggerPrice: 10000, limitPrice: 10500 });
    expect(h.order(peStop.id)).toMatchObject({ triggerPrice: 10000, modifications: 1, status: 'TRIGGER_PENDING' });
  });

  it('when the surviving premium is above cost, its stop goes one tick above the market instead', () => {
    const h = harness({ otherStopToCost: true });
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119], [125, 160, 124, 158]], [[100, 101, 99, 100.5], [104, 106, 103, 105]], true);
    const peStop = places(h).find((i) => i.instrument === PE_ATM.id && i.side === 'BUY')!;
    expect(h.order(peStop.id)).toMatchObject({ triggerPrice: 10505, modifications: 1 });
    expect(h.denials).toEqual([]);
  });

  it('when the venue refuses one leg for margin, the other is unwound before it trades', () => {
    const probe = harness();
    const oneLeg = probe.engine.calculateMargin({ instrument: CE_ATM.id, side: 'SELL', qty: 50, price: 12000, product: 'INTRADAY' }).totalMargin;
    const h = harness({}, { openingBalance: Math.round(oneLeg * 1.5) });
    openAndChain(h, '09:20');
    const [ce, pe] = places(h);
    expect(h.order(pe!.id)).toMatchObject({ status: 'REJECTED' });
    expect(h.order(pe!.id)?.reason).toMatch(/margin|fund|balance/i);
    expect(h.intents.at(-1)).toMatchObject({ kind: 'exit', instrument: CE_ATM.id });
    expect(h.order(ce!.id)?.status).toBe('CANCELLED');
    legCandles(h, '09:20', [[120, 121, 118, 119]], [[100, 101, 99, 100.5]]);
    expect(h.trades).toEqual([]);
    expect(h.ctx.state['straddle']).toMatchObject({ phase: 'done' });
  });

  it('when risk denies a leg outright, the other leg is unwound on the next event', () => {
    const deny = (i: Intent): string | undefined => (i.kind === 'place' && i.instrument === PE_ATM.id && i.side === 'SELL' ? 'INSUFFICIENT_FUNDS: margin 1,20,000.00 needed, 60,000.00 available' : undefined);
    const h = harness({}, { deny });
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119]], []);
    // The CE sold on the 09:20 candle before the strategy could know; it is bought back at once.
    expect(h.denials).toHaveLength(1);
    expect(h.intents.at(-1)).toMatchObject({ kind: 'exit', instrument: CE_ATM.id });
    legCandles(h, '09:21', [[119, 120, 118, 119]], []);
    expect(h.engine.account.netQty(CE_ATM.id)).toBe(0);
  });

  it('closes a leg whose stop the venue refuses rather than hold it unprotected', () => {
    // A stop below the market is refused by the venue's stop-side check; here the premium has
    // already run past the 1% stop by the time it is placed.
    const h = harness({ stopLossPercent: 1, stopLimitBufferPercent: 0 });
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 135, 119, 134]], [[100, 101, 99, 100.5]]);
    const ceStop = places(h).find((i) => i.instrument === CE_ATM.id && i.side === 'BUY');
    expect(ceStop?.triggerPrice).toBe(stopTrigger(12000, 1, 5));
    // Placed when the fill is reported, after the candle closed at 134: below the market, refused.
    expect(h.order(ceStop!.id)).toMatchObject({ status: 'REJECTED', reason: expect.stringMatching(/greater than the last traded price 134\.00/) });
    expect(h.intents.filter((i) => i.kind === 'exit').map((i) => (i.kind === 'exit' ? i.instrument : ''))).toEqual([CE_ATM.id]);
    legCandles(h, '09:21', [[134, 136, 133, 135]], [[100, 100.5, 99, 100]]);
    expect(h.trades.at(-1)).toMatchObject({ instrument: CE_ATM.id, side: 'BUY', qty: 50, price: 13400 });
    // The put keeps its own stop.
    expect(h.engine.workingOrders(PE_ATM.id)).toHaveLength(1);
  });

  it('after a restart it neither sells again nor forgets its legs, and still buys them back at the exit time', () => {
    const h = harness();
    openAndChain(h, '09:20');
    legCandles(h, '09:20', [[120, 121, 118, 119]], [[100, 101, 99, 100.5]]);
    const saved = JSON.parse(JSON.stringify(h.ctx.state)) as typeof h.ctx.state;
    expect(saved['straddle']).toMatchObject({ phase: 'entered', legs: [{ optionType: 'CE', status: 'open', entryPrice: 12000 }, { optionType: 'PE', status: 'open', entryPrice: 10000 }] });

    h.restart(shortStraddle.create(shortStraddleParams.parse({ entryTime: '09:20' }), { id: 'straddle-1', instruments: h.instruments }));
    const before = h.intents.length;
    h.publishChain(chain({ ts: at('09:22'), spot: 2171000 }), EXPIRIES);
    for (const c of minuteCandles(NIFTY.id, DAY, '09:22', flat(21710, 3))) h.candle(c);
    expect(h.intents.slice(before)).toEqual([]);
    for (const c of minuteCandles(NIFTY.id, DAY, '15:14', flat(21710, 1))) h.candle(c);
    expect(h.intents.slice(before).map((i) => (i.kind === 'exit' ? i.instrument : i.kind))).toEqual([CE_ATM.id, PE_ATM.id]);
  });

  it('skips the day when no chain of the selected expiry arrives within the entry window', () => {
    const h = harness({ entryWindowMinutes: 5 });
    for (const c of minuteCandles(NIFTY.id, DAY, '09:15', flat(21710, 6))) h.candle(c);
    // A chain of the wrong expiry is ignored.
    h.publishChain(chain({ ts: at('09:21'), spot: 2171000, expiry: '2024-01-11' }), EXPIRIES);
    for (const c of minuteCandles(NIFTY.id, DAY, '09:21', flat(21710, 6))) h.candle(c);
    expect(h.intents).toEqual([]);
    expect(h.ctx.state['straddle']).toMatchObject({ phase: 'skipped' });
  });

  it('follows the expiry selector: nearest-monthly sells the month-end contracts', () => {
    const monthly = '2024-01-25';
    const instruments: Instrument[] = [NIFTY, option(21700, 'CE', 50, monthly), option(21700, 'PE', 50, monthly)];
    const h = harness({ expiry: 'nearest-monthly' }, { instruments });
    for (const c of minuteCandles(NIFTY.id, DAY, '09:15', flat(21710, 5))) h.candle(c);
    h.publishChain(chain({ ts: at('09:20'), spot: 2171000 }), EXPIRIES);
    expect(h.intents).toEqual([]);
    h.publishChain(chain({ ts: at('09:20'), spot: 2171000, expiry: monthly }), EXPIRIES);
    expect(places(h).map((i) => i.instrument)).toEqual(instruments.slice(1).map((i) => i.id));
  });

  describe('greeks', () => {
    it('local greeks match a textbook case in the broker units (Hull: S 49, K 50, r 5%, 20 weeks, vol 20%: call 2.40, delta 0.522)', () => {
      const expiry = '2025-06-27';
      const years = 20 / 52;
      const now = istDateTime(expiry, '15:30') - Math.round(years * 365 * 86_400_000);
      const q = { instrument: 'NFO_1', tradingSymbol: 'X', optionType: 'CE' as const, strike: 5000, expiry, lotSize: 1, tickSize: 1, ltp: 240 };
      const g = legGreeks(q, 4900, now, { rate: 0.05 })!;
      expect(g.source).toBe('local');
      expect(g.iv).toBeCloseTo(0.2, 2);
      expect(g.delta).toBeCloseTo(0.522, 2);
      // Gamma per rupee of the underlying, theta per calendar day and vega per point, in rupees.
      expect(g.gamma).toBeCloseTo(0.066, 2);
      expect(g.theta).toBeCloseTo(-4.31 / 365, 3);
      expect(g.vega).toBeCloseTo(0.121, 2);
    });

    it('computes IV locally when the chain has no greeks, and skips the day below minIv', () => {
      const h = harness({ minIv: 0.2 });
      openAndChain(h, '09:20', { ltp: {}, vol: 0.13 });
      expect(h.intents).toEqual([]);
      expect(h.ctx.state['straddle']).toMatchObject({ phase: 'skipped' });
      const g = harness({ minIv: 0.1 });
      openAndChain(g, '09:20', { ltp: {}, vol: 0.13 });
      expect(places(g)).toHaveLength(2);
    });

    it("uses the broker's greeks when the chain carries them", () => {
      const h = harness({ minIv: 0.2 });
      openAndChain(h, '09:20', { greeks: () => ({ iv: 0.25, delta: 0.5, gamma: 0.0004, theta: -12, vega: 8 }) });
      expect(places(h)).toHaveLength(2);
    });
  });
});
