import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { DAY_MS, istDate, istDateTime, istMidnight, istWeekday } from '../../../../src/core/time.js';
import { HistoryService } from '../../../../src/adapters/simulator/history/index.js';
import type { Bar, LiveMinuteSource, WireCandle } from '../../../../src/adapters/simulator/history/index.js';
import type { ApiResult } from '../../../../src/adapters/simulator/universe/index.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { TEST_TODAY, testUniverse } from '../support/universe.js';

const u = testUniverse();
const NOW = istDateTime(TEST_TODAY, '11:00');

function service(now = NOW, universe: Universe = u): HistoryService {
  return new HistoryService({ universe, clock: new VirtualClock(now) });
}

function ok<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r.data;
}

function candlesOf(h: HistoryService, interval: string, code: string, from: number, to: number): readonly WireCandle[] {
  return ok(h.historical(interval, { 'scrip-codes': code, start_time: String(from), end_time: String(to) }))[code]!.candles;
}

function hhmm(tsSeconds: number): string {
  return new Date(tsSeconds * 1000 + 330 * 60_000).toISOString().slice(11, 16);
}

const RELIANCE = 'NSE_2885';

describe('historical candles (wire-gaps)', () => {
  it('anchors 60-minute buckets at 09:15: 09:15, 10:15, ... 15:15', () => {
    const h = service();
    const day = '2026-11-19';
    const c = candlesOf(h, '60minute', RELIANCE, istMidnight(day), istMidnight(day) + DAY_MS);
    expect(c.map((x) => hhmm(x.ts))).toEqual(['09:15', '10:15', '11:15', '12:15', '13:15', '14:15', '15:15']);
    // The last bucket holds 15 minutes (15:15-15:30): its volume is the tail of the 1-minute ones.
    const minutes = candlesOf(h, '1minute', RELIANCE, istDateTime(day, '15:15'), istDateTime(day, '15:30'));
    expect(minutes).toHaveLength(15);
    expect(c[6]!.v).toBe(minutes.reduce((s, m) => s + m.v, 0));
    expect(c[6]!.h).toBe(Math.max(...minutes.map((m) => m.h)));
    expect(c[6]!.c).toBe(minutes[14]!.c);
    const m5 = candlesOf(h, '5minute', RELIANCE, istMidnight(day), istMidnight(day) + DAY_MS);
    expect(m5).toHaveLength(75);
    expect(hhmm(m5[0]!.ts)).toBe('09:15');
    expect(hhmm(m5[74]!.ts)).toBe('15:25');
  });

  it('returns trading days only (no weekend, no holiday)', () => {
    const h = service();
    const c = candlesOf(h, '1day', RELIANCE, istMidnight('2026-11-02'), istMidnight('2026-11-20'));
    const days = c.map((x) => istDate(x.ts * 1000));
    expect(days).not.toContain('2026-11-10'); // holiday
    for (const d of days) expect(istWeekday(istMidnight(d))).toBeLessThanOrEqual(5);
    expect(days).toEqual(nseCalendar().tradingDays('2026-11-02', '2026-11-19'));
  });

  it('truncates a wider window to the interval maximum instead of rejecting it', () => {
    const h = service();
    const start = istMidnight('2026-09-01');
    const cases: [string, number][] = [
      ['1minute', 7],
      ['30minute', 7],
      ['60minute', 15],
      ['240minute', 15],
      ['1day', 365],
    ];
    for (const [interval, days] of cases) {
      const far = interval === '1day' ? istMidnight('2024-01-01') : start;
      const c = candlesOf(h, interval, RELIANCE, far, NOW);
      expect(c.length).toBeGreaterThan(0);
      expect(c[c.length - 1]!.ts * 1000).toBeLessThan(far + days * DAY_MS);
      expect(c[0]!.ts * 1000).toBeGreaterThanOrEqual(far);
    }
  });

  it('keeps OHLC consistent and on tick for cash, index, future and option candles', () => {
    const h = service();
    const fut = u.contracts('NIFTY', u.currentExpiries('NIFTY').find((e) => u.contracts('NIFTY', e)[0]!.strike === null)!)[0]!;
    const opt = u.contracts('RELIANCE', u.currentExpiries('RELIANCE')[0]!).find((c) => c.optionType === 'PE')!;
    const codes: [string, number][] = [
      [RELIANCE, u.get(RELIANCE)!.tickSize],
      ['NIDX_13', 5],
      [`NFO_${fut.securityId}`, fut.tickSize],
      [`NFO_${opt.securityId}`, opt.tickSize],
    ];
    for (const [code, tick] of codes) {
      for (const interval of ['1minute', '15minute', '1day']) {
        const from = interval === '1day' ? istMidnight('2026-10-01') : istMidnight('2026-11-16');
        const candles = candlesOf(h, interval, code, from, NOW);
        expect(candles.length).toBeGreaterThan(0);
        const bad = candles.filter(
          (x) => !(x.l <= Math.min(x.o, x.c) && x.h >= Math.max(x.o, x.c) && x.l > 0) || [x.o, x.h, x.l, x.c].some((p) => Math.round(p * 100) % tick !== 0),
        );
        expect(bad, `${code} ${interval}`).toEqual([]);
      }
    }
  });

  it('is deterministic for a seed and differs with another', () => {
    const a = candlesOf(service(), '15minute', RELIANCE, istMidnight('2026-11-16'), NOW);
    const b = candlesOf(service(), '15minute', RELIANCE, istMidnight('2026-11-16'), NOW);
    expect(b).toEqual(a);
    const other = Universe.build({ seed: 99, today: TEST_TODAY, calendar: nseCalendar(), nseEquities: 100, bseEquities: 10 });
    const c = candlesOf(service(NOW, other), '15minute', RELIANCE, istMidnight('2026-11-16'), NOW);
    expect(c).not.toEqual(a);
  });

  it('agrees across intervals: a day candle is the aggregate of its minutes', () => {
    const h = service();
    const day = '2026-11-18';
    const d = candlesOf(h, '1day', RELIANCE, istMidnight(day), istMidnight(day) + DAY_MS)[0]!;
    const m = candlesOf(h, '1minute', RELIANCE, istMidnight(day), istMidnight(day) + DAY_MS);
    expect(m).toHaveLength(375);
    expect(d).toEqual({ ts: m[0]!.ts, o: m[0]!.o, h: Math.max(...m.map((x) => x.h)), l: Math.min(...m.map((x) => x.l)), c: m[374]!.c, v: m.reduce((s, x) => s + x.v, 0) });
  });

  it('pages without gaps or repeats when the next start is the previous end', () => {
    const h = service();
    const a = istMidnight('2026-11-16');
    const b = istDateTime('2026-11-17', '12:40');
    const c = istMidnight('2026-11-20');
    const whole = candlesOf(h, '15minute', RELIANCE, a, c);
    const paged = [...candlesOf(h, '15minute', RELIANCE, a, b), ...candlesOf(h, '15minute', RELIANCE, b, c)];
    expect(paged).toEqual(whole);
    const weeks = candlesOf(h, '1week', RELIANCE, istMidnight('2026-06-01'), istMidnight('2026-11-20'));
    for (const w of weeks) expect(istWeekday(w.ts * 1000)).toBe(1);
    expect(hhmm(weeks[0]!.ts)).toBe('09:15');
  });

  it('never returns a candle at or after the clock, and today ends with the forming one', () => {
    const h = service();
    const c = candlesOf(h, '60minute', RELIANCE, istMidnight(TEST_TODAY), istMidnight(TEST_TODAY) + DAY_MS);
    expect(c.map((x) => hhmm(x.ts))).toEqual(['09:15', '10:15']);
    const m = candlesOf(h, '1minute', RELIANCE, istMidnight(TEST_TODAY), istMidnight(TEST_TODAY) + DAY_MS);
    expect(m).toHaveLength(105);
    expect(m[104]!.ts * 1000).toBeLessThan(NOW);
    expect(c[1]!.c).toBe(m[104]!.c);
    expect(candlesOf(h, '1day', RELIANCE, istMidnight('2026-11-21'), istMidnight('2026-11-28'))).toHaveLength(0);
  });

  it("takes today's candles from the live model's recorded path when attached", () => {
    const h = service();
    const open = istDateTime(TEST_TODAY, '09:15');
    const recorded: Bar[] = [];
    for (let k = 0; k < 105; k++) recorded.push({ start: open + k * 60_000, open: 150000, high: 150100 + k * 10, low: 149900, close: 150000 + k * 10, volume: 10 });
    const asked: string[] = [];
    const live: LiveMinuteSource = {
      minuteBars(code, until) {
        asked.push(code);
        return code === RELIANCE ? recorded.filter((b) => b.start < until) : undefined;
      },
    };
    h.setLiveSource(live);
    const c = candlesOf(h, '60minute', RELIANCE, istMidnight(TEST_TODAY), NOW);
    expect(c[0]).toEqual({ ts: open / 1000, o: 1500, h: 1506.9, l: 1499, c: 1505.9, v: 600 });
    expect(asked).toContain(RELIANCE);
    // An instrument the model does not track falls back to the generator; past days never ask.
    const infy = candlesOf(h, '60minute', 'NSE_1594', istMidnight(TEST_TODAY), NOW);
    expect(infy).toHaveLength(2);
    asked.length = 0;
    candlesOf(h, '60minute', RELIANCE, istMidnight('2026-11-19'), istMidnight(TEST_TODAY));
    expect(asked).toHaveLength(0);
  });

  it('gives derivatives whole-lot volume and open interest; options move with their underlying', () => {
    const h = service();
    const expiry = u.currentExpiries('NIFTY')[0]!;
    const spot = u.underlyingClose('NIFTY', '2026-11-19');
    const chain = u.contracts('NIFTY', expiry);
    const atm = chain.filter((c) => c.strike !== null).reduce((a, b) => (Math.abs(b.strike! - spot) < Math.abs(a.strike! - spot) ? b : a));
    const call = chain.find((c) => c.strike === atm.strike && c.optionType === 'CE')!;
    const put = chain.find((c) => c.strike === atm.strike && c.optionType === 'PE')!;
    const from = istMidnight('2026-11-19');
    const to = istMidnight(TEST_TODAY);
    const under = candlesOf(h, '5minute', 'NIDX_13', from, to);
    const ce = candlesOf(h, '5minute', `NFO_${call.securityId}`, from, to);
    const pe = candlesOf(h, '5minute', `NFO_${put.securityId}`, from, to);
    expect(ce).toHaveLength(under.length);
    let agreeCall = 0;
    let agreePut = 0;
    for (let k = 1; k < under.length; k++) {
      const du = under[k]!.c - under[k - 1]!.c;
      if (Math.sign(ce[k]!.c - ce[k - 1]!.c) === Math.sign(du)) agreeCall++;
      if (Math.sign(pe[k]!.c - pe[k - 1]!.c) === -Math.sign(du)) agreePut++;
    }
    expect(agreeCall / (under.length - 1)).toBeGreaterThan(0.8);
    expect(agreePut / (under.length - 1)).toBeGreaterThan(0.8);
    for (const x of ce) {
      expect(x.v % call.lotSize).toBe(0);
      expect(x.oi).toBeGreaterThan(0);
      expect(x.oi! % call.lotSize).toBe(0);
    }
    expect(ce.reduce((s, x) => s + x.v, 0)).toBeGreaterThan(0);
  });
});

describe('historical errors', () => {
  const h = service();
  const t = { start_time: String(istMidnight('2026-11-16')), end_time: String(NOW) };

  it('rejects an unknown interval with "invalid interval."', () => {
    const r = h.historical('7minute', { 'scrip-codes': RELIANCE, ...t });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ httpStatus: 400, debugInfo: 'invalid interval.' });
  });

  it('rejects bad, unknown, missing or more than 5 scrip codes with "Invalid scrip codes"', () => {
    for (const codes of ['', 'NSE_999999999', 'XYZ_1', 'NSE_2885,NSE_1333,NSE_1594,NSE_11536,NSE_4963,NSE_3045']) {
      const r = h.historical('1day', { 'scrip-codes': codes, ...t });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.debugInfo).toMatch(/^Invalid scrip codes/);
    }
  });

  it('requires start_time and end_time in epoch ms, end after start', () => {
    const miss = h.historical('1day', { 'scrip-codes': RELIANCE, end_time: t.end_time });
    expect(!miss.ok && miss.error.param).toBe('start_time');
    const bad = h.historical('1day', { 'scrip-codes': RELIANCE, start_time: '2026-11-16', end_time: t.end_time });
    expect(!bad.ok && bad.error.param).toBe('start_time');
    const inv = h.historical('1day', { 'scrip-codes': RELIANCE, start_time: t.end_time, end_time: t.start_time });
    expect(!inv.ok && inv.error.param).toBe('end_time');
  });
});

describe('expired-contract candles (spec 4.9)', () => {
  it('serves an expired contract by trading symbol within its listed life only', () => {
    const h = service();
    const expiry = u.expiredExpiries('NIFTY').at(-1)!;
    const c = u.contracts('NIFTY', expiry).find((x) => x.optionType === 'CE' && x.strike! % 10000 === 0)!;
    const data = ok(h.expiredHistorical('1day', { 'trading-symbols': c.tradingSymbol, start_time: String(istMidnight('2026-01-01')), end_time: String(NOW) }));
    const candles = data[c.tradingSymbol]!.candles;
    expect(candles.length).toBeGreaterThan(10);
    expect(istDate(candles.at(-1)!.ts * 1000)).toBe(expiry);
    expect(istDate(candles[0]!.ts * 1000) >= u.listingDate(c)).toBe(true);
    const via = h.candles({ tradingSymbol: c.tradingSymbol }, '1day', istMidnight('2026-01-01'), NOW)!;
    expect(via.length).toBe(candles.length);
  });

  it('rejects an unknown symbol, a wrong segment and more than 50 symbols', () => {
    const h = service();
    const t = { start_time: String(istMidnight('2026-11-01')), end_time: String(NOW) };
    const unknown = h.expiredHistorical('1day', { 'trading-symbols': 'NIFTY21JAN99999CE', ...t });
    expect(!unknown.ok && unknown.error.debugInfo).toMatch(/Invalid trading symbols/);
    const sym = u.contracts('NIFTY', u.expiredExpiries('NIFTY').at(-1)!)[1]!.tradingSymbol;
    const bfo = h.expiredHistorical('1day', { 'trading-symbols': sym, segment: 'BFO', ...t });
    expect(bfo.ok).toBe(false);
    const many = h.expiredHistorical('1day', { 'trading-symbols': Array(51).fill(sym).join(','), ...t });
    expect(!many.ok && many.error.debugInfo).toMatch(/at most 50/);
  });
});

describe('closing prices', () => {
  it('equal the last minute candle of the day for cash, index, futures and options, without generating the day', () => {
    const h = service();
    const date = '2026-11-18';
    const codes = [RELIANCE, 'NIDX_13', 'NSE_1594'];
    for (const sym of ['NIFTY', 'RELIANCE']) {
      const exp = u.currentExpiries(sym).find((e) => u.contracts(sym, e)[0]!.strike === null)!;
      const chain = u.contracts(sym, exp);
      for (const c of [chain[0]!, chain[Math.floor(chain.length / 2)]!, chain[Math.floor(chain.length / 2) + 1]!, chain.at(-1)!]) codes.push(`NFO_${c.securityId}`);
    }
    let diffTicks = 0;
    for (const code of codes) {
      const last = h.minuteBars(code, date).at(-1)!.close;
      const close = h.closingPrice(code, date)!;
      const tick = u.get(code)!.tickSize;
      // Float rounding of the same value may at most flip one tick, and rarely.
      expect(Math.abs(close - last)).toBeLessThanOrEqual(tick);
      if (close !== last) diffTicks++;
    }
    expect(diffTicks).toBeLessThanOrEqual(1);
    expect(h.previousClose(RELIANCE, '2026-11-19')).toBe(h.closingPrice(RELIANCE, date));
    expect(h.closingPrice(RELIANCE, '2026-11-21')).toBeUndefined(); // a Saturday
  });
});
