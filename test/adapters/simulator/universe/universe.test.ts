import { beforeAll, describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { istMidnight, istWeekday } from '../../../../src/core/time.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { MASTER_COLUMNS } from '../../../../src/adapters/simulator/universe/master-csv.js';
import { parseInstrumentMaster } from '../../../../src/core/instrument-master.js';
import { ConfigError } from '../../../../src/core/errors.js';

const TODAY = '2026-11-20';
let u: Universe;

beforeAll(() => {
  u = Universe.build({ seed: 7, today: TODAY, calendar: nseCalendar() });
});

function weekday(date: string): number {
  return istWeekday(istMidnight(date));
}

function parseCsv(text: string): string[][] {
  // No generated field needs quoting (no commas or quotes in names), so a plain split is exact.
  expect(text).not.toContain('"');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));
}

describe('instrument master CSVs (spec 2.3)', () => {
  it('has the 16 columns in order on every equity and fno row', () => {
    for (const source of ['equity', 'fno'] as const) {
      const rows = parseCsv(u.masterCsv(source));
      expect(rows[0]).toEqual([...MASTER_COLUMNS]);
      expect(rows.filter((r) => r.length !== 16)).toEqual([]);
      expect(rows.length).toBeGreaterThan(1000);
    }
  });

  it('parses back with the core instrument-master parser into the same instruments', () => {
    const kinds = { equity: ['EQUITY'], fno: ['OPTIDX', 'OPTSTK', 'FUTIDX', 'FUTSTK'], index: ['INDEX'] } as const;
    for (const source of ['equity', 'fno', 'index'] as const) {
      const parsed = parseInstrumentMaster(u.masterCsv(source), source, { strict: true });
      expect(parsed.errors).toEqual([]);
      const expected = u.instruments().filter((i) => (kinds[source] as readonly string[]).includes(i.kind));
      expect(parsed.instruments.length).toBe(expected.length);
      // Spot-check a spread of rows field by field (all 68,000 would only slow the suite).
      const byId = new Map(parsed.instruments.map((i) => [i.id, i]));
      for (let k = 0; k < expected.length; k += Math.max(1, Math.floor(expected.length / 300))) {
        expect(byId.get(expected[k]!.id)).toEqual(expected[k]);
      }
    }
  });

  it('has three columns for indices, the second holding the index name', () => {
    const rows = parseCsv(u.masterCsv('index'));
    expect(rows[0]).toEqual(['EXCH', 'SEGMENT', 'SECURITY_ID']);
    expect(rows.filter((r) => r.length !== 3)).toEqual([]);
    expect(rows).toContainEqual(['NSE', 'NIFTY', '13']);
    expect(rows).toContainEqual(['NSE', 'BANKNIFTY', '25']);
    expect(rows).toContainEqual(['NSE', 'FINNIFTY', '27']);
    expect(rows).toContainEqual(['BSE', 'SENSEX', '51']);
  });

  it('lists well-known equities under their real NSE tokens, with lot 1 and a price-band tick', () => {
    const rows = parseCsv(u.masterCsv('equity'));
    const byKey = new Map(rows.map((r) => [`${r[0]}:${r[5]}`, r]));
    for (const [sym, id] of [['RELIANCE', '2885'], ['HDFCBANK', '1333'], ['INFY', '1594'], ['TCS', '11536']]) {
      const r = byKey.get(`NSE:${sym}`)!;
      expect(r[2]).toBe(id);
      expect(r[1]).toBe('E');
      expect(r[6]).toBe('1');
      expect(['0.01', '0.05', '0.10', '0.50', '1.00', '5.00']).toContain(r[11]);
    }
    expect(byKey.get('BSE:RELIANCE')?.[2]).toBe('500325');
  });

  it('offers at least 3,000 tradable instruments, all unique, with parseable fno rows', () => {
    const tradable = u.instruments().filter((i) => i.segment !== 'INDEX');
    expect(tradable.length).toBeGreaterThanOrEqual(3000);
    expect(u.instruments().filter((i) => i.kind === 'EQUITY' && i.exchange === 'NSE').length).toBe(2400);
    expect(u.instruments().filter((i) => i.kind === 'EQUITY' && i.exchange === 'BSE').length).toBe(1000);
    const rows = parseCsv(u.masterCsv('fno')).slice(1);
    const ids = new Set(rows.map((r) => `${r[0]}:${r[2]}`));
    expect(ids.size).toBe(rows.length);
    for (const r of rows.slice(0, 500)) {
      expect(['OPTIDX', 'OPTSTK', 'FUTIDX', 'FUTSTK']).toContain(r[3]);
      expect(Number(r[6])).toBeGreaterThan(0);
      expect(r[8]! >= TODAY).toBe(true);
      expect(['W', 'M']).toContain(r[12]);
      if (r[3]!.startsWith('OPT')) expect(Number(r[9])).toBeGreaterThan(0);
      else expect(r[9]).toBe('');
    }
  });

  it('uses real lot sizes and tick sizes from the reference master', () => {
    const nifty = u.contracts('NIFTY', u.currentExpiries('NIFTY')[0]!);
    expect(nifty[0]?.lotSize).toBe(65);
    expect(u.contracts('BANKNIFTY', u.currentExpiries('BANKNIFTY')[0]!)[0]?.lotSize).toBe(30);
    expect(u.contracts('RELIANCE', u.currentExpiries('RELIANCE')[0]!)[0]?.lotSize).toBe(500);
    expect(u.contracts('SENSEX', u.currentExpiries('SENSEX')[0]!)[0]?.lotSize).toBe(20);
    const opt = nifty.find((c) => c.optionType === 'CE')!;
    expect(opt.tickSize).toBe(5);
    // Historical lot sizes follow the exchange's changes (75 -> 50 -> 25 for NIFTY, as in the bhavcopies).
    expect(u.contracts('NIFTY', '2023-11-30')[0]?.lotSize).toBe(50);
    expect(u.contracts('NIFTY', '2024-08-29')[0]?.lotSize).toBe(25);
  });

  it('is deterministic in seed and date, and differs with another seed', () => {
    // A second build with fewer equities: same derivatives, and the equities are a prefix.
    const a = Universe.build({ seed: 7, today: TODAY, calendar: nseCalendar(), nseEquities: 300, bseEquities: 100 });
    expect(a.masterCsv('fno') === u.masterCsv('fno')).toBe(true);
    const lines = (csv: string) => csv.trimEnd().split('\n');
    expect(lines(a.masterCsv('equity')).slice(0, 301)).toEqual(lines(u.masterCsv('equity')).slice(0, 301));
    const other = Universe.build({ seed: 8, today: TODAY, calendar: nseCalendar(), nseEquities: 400, bseEquities: 100 });
    expect(other.underlyingClose('NIFTY', '2024-01-15')).not.toBe(u.underlyingClose('NIFTY', '2024-01-15'));
    // Reference prices anchor every seed on the same day.
    expect(other.underlyingClose('NIFTY', '2026-08-14')).toBe(u.underlyingClose('NIFTY', '2026-08-14'));
  });

  it('sizes each exchange as asked, BSE-only listings included, derivatives only on NSE-listed stocks', () => {
    const small = Universe.build({ seed: 3, today: TODAY, calendar: nseCalendar(), nseEquities: 50, bseEquities: 400 });
    const count = (ex: string) => small.instruments().filter((i) => i.kind === 'EQUITY' && i.exchange === ex).length;
    expect([count('NSE'), count('BSE')]).toEqual([50, 400]);
    expect(small.underlyings().filter((x) => x.kind === 'EQUITY')).toHaveLength(50);
    expect(small.underlying('RELIANCE')?.instrument.id).toBe('NSE_2885');
  });

  it('keeps every contract security id from one day to the next (a paper run spanning days)', () => {
    const yesterday = Universe.build({ seed: 7, today: '2026-11-19', calendar: nseCalendar(), nseEquities: 250, bseEquities: 10 });
    let same = 0;
    const moved: string[] = [];
    for (const i of yesterday.instruments()) {
      if (i.segment !== 'FNO') continue;
      const c = u.contractBySymbol(i.tradingSymbol);
      if (!c?.securityId) continue; // expired overnight or not listed any more
      if (c.securityId === i.securityId) same++;
      else moved.push(i.tradingSymbol);
    }
    expect(moved).toEqual([]);
    expect(same).toBeGreaterThan(50_000);
    expect(u.instruments().filter((i) => i.segment === 'FNO' && !/^\d{8}$/.test(i.securityId))).toEqual([]);
  });

  it('rejects bad options with a message naming them', () => {
    expect(() => Universe.build({ seed: 1, today: '2026-13-01', calendar: nseCalendar() })).toThrow(/today.*2026-13-01/);
    expect(() => Universe.build({ seed: 1.5, today: TODAY, calendar: nseCalendar() })).toThrow(ConfigError);
    expect(() => Universe.build({ seed: 1, today: TODAY, calendar: nseCalendar(), nseEquities: -1 })).toThrow(/nseEquities/);
  });
});

describe('expiries per era (spec 4.5)', () => {
  it('lists only index options on weeklies and futures on the serial monthlies (rule 2)', () => {
    for (const sym of ['NIFTY', 'SENSEX']) {
      for (const e of u.currentExpiries(sym)) {
        const chain = u.contracts(sym, e);
        const futures = chain.filter((c) => c.instrumentType === 'FUTIDX');
        if (chain[0]!.expiryKind === 'W') expect(futures).toHaveLength(0);
        expect(futures.length).toBeLessThanOrEqual(1);
      }
    }
    for (const e of u.expiredExpiries('NIFTY').slice(-30)) {
      const chain = u.contracts('NIFTY', e);
      const hasFuture = chain.some((c) => c.instrumentType === 'FUTIDX');
      expect(hasFuture).toBe(chain[0]!.expiryKind === 'M');
    }
  });

  it('puts NIFTY expiries on Thursdays before September 2025 and Tuesdays after, moved back over holidays', () => {
    const exp = u.expiredExpiries('NIFTY');
    const cal = nseCalendar();
    for (const e of exp) {
      expect(cal.isTradingDay(e)).toBe(true);
      const nominal = e < '2025-09-01' ? 4 : 2;
      // A holiday moves the expiry to the previous trading day, so it may fall up to a few days earlier.
      expect(weekday(e) <= nominal && weekday(e) >= nominal - 3).toBe(true);
    }
    expect(exp).toContain('2023-06-28'); // Thursday 29 June 2023 was a holiday
    expect(exp).not.toContain('2023-06-29');
    expect(u.currentExpiries('NIFTY')).toContain('2026-11-23'); // Tuesday 24 November 2026 is a holiday
  });

  it('ends BANKNIFTY weeklies in November 2024 and keeps its monthlies', () => {
    const after = u.expiredExpiries('BANKNIFTY').filter((e) => e > '2024-11-14');
    for (const e of after) expect(u.contracts('BANKNIFTY', e)[0]?.expiryKind).toBe('M');
    expect(after.length).toBeGreaterThan(20);
    expect(u.expiredExpiries('BANKNIFTY').filter((e) => e >= '2024-01-01' && e < '2024-11-14').length).toBeGreaterThan(40);
  });

  it('keeps five years of expired expiries and lists upcoming ones separately', () => {
    const exp = u.expiredExpiries('NIFTY');
    expect(exp[0]! >= '2021-11-20').toBe(true);
    expect(exp[exp.length - 1]! < TODAY).toBe(true);
    expect(exp.length).toBeGreaterThan(250);
    for (const e of u.currentExpiries('NIFTY')) expect(e >= TODAY).toBe(true);
    expect(u.expiredExpiries('SENSEX')[0]! >= '2023-05-15').toBe(true);
  });

  it('moves SENSEX weeklies from Friday to Tuesday (2025) to Thursday (September 2025)', () => {
    const exp = u.expiredExpiries('SENSEX');
    // The usual weekday of an era (holidays move a few expiries a day or two earlier).
    const usual = (from: string, to: string): number => {
      const counts = new Map<number, number>();
      for (const e of exp) if (e >= from && e < to) counts.set(weekday(e), (counts.get(weekday(e)) ?? 0) + 1);
      return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    };
    expect(usual('2023-06-01', '2025-01-01')).toBe(5);
    expect(usual('2025-01-01', '2025-09-01')).toBe(2);
    expect(usual('2025-09-01', TODAY)).toBe(4);
  });

  it('resolves expired symbols of weeklies and monthlies, and nothing for malformed ones', () => {
    const weekly = u.expiredExpiries('NIFTY').find((e) => u.contracts('NIFTY', e)[0]!.expiryKind === 'W' && e > '2025-01-01')!;
    const w = u.contracts('NIFTY', weekly).at(-2)!;
    expect(w.tradingSymbol).toMatch(/^NIFTY\d{2}[1-9OND]\d{2}\d+(CE|PE)$/);
    expect(u.contractBySymbol(w.tradingSymbol)).toEqual(w);
    const m = u.contracts('BANKNIFTY', '2025-06-26')[0]!;
    expect(m.tradingSymbol).toBe('BANKNIFTY25JUNFUT');
    expect(u.contractBySymbol('BANKNIFTY25JUNFUT')).toEqual(m);
    for (const bad of ['NIFTY', 'NIFTY25XYZ100CE', 'NIFTY25JUN1CE', 'NOPE25JUNFUT', '']) expect(u.contractBySymbol(bad)).toBeUndefined();
  });

  it('finds an expired contract by trading symbol, and a current one by scrip code', () => {
    const chain = u.contracts('NIFTY', u.expiredExpiries('NIFTY')[100]!);
    const c = chain[chain.length - 3]!;
    expect(u.contractBySymbol(c.tradingSymbol)).toEqual(c);
    expect(c.securityId).toBeUndefined();
    const cur = u.contracts('RELIANCE', u.currentExpiries('RELIANCE')[0]!)[0]!;
    expect(cur.tradingSymbol).toMatch(/^RELIANCE\d{2}[A-Z]{3}FUT$/);
    expect(u.contractOf(`NFO_${cur.securityId}`)).toEqual(cur);
    expect(u.get(`NFO_${cur.securityId}`)?.kind).toBe('FUTSTK');
  });
});
