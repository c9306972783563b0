import { describe, expect, it } from 'vitest';
import {
  contractsErrorBody,
  expiredContracts,
  listExpiredExpiries,
  listExpiries,
  searchContracts,
  searchExpiredContracts,
} from '../../../../src/adapters/simulator/universe/index.js';
import type { ApiResult } from '../../../../src/adapters/simulator/universe/index.js';
import { TEST_TODAY, testUniverse } from '../support/universe.js';

const u = testUniverse();
const D = { underlying: 'NIFTY', segment: 'DERIVATIVE' };

function data<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r.data;
}

function error(r: ApiResult<unknown>): { status: number; body: { message: string; debug_info: string }; param?: string } {
  if (r.ok) throw new Error('expected an error');
  return { status: r.error.httpStatus, body: contractsErrorBody(r.error), ...(r.error.param ? { param: r.error.param } : {}) };
}

describe('shared parameters (spec 4.5, 7.4)', () => {
  const endpoints: readonly (readonly [string, (q: Record<string, string>) => ApiResult<unknown>])[] = [
    ['search', (q: Record<string, string>) => searchContracts(u, q)],
    ['expiries', (q: Record<string, string>) => listExpiries(u, q)],
    ['expired search', (q: Record<string, string>) => searchExpiredContracts(u, { expiry_from: '2025-01-01', expiry_to: '2025-06-30', ...q })],
    ['expired expiries', (q: Record<string, string>) => listExpiredExpiries(u, { expiry_from: '2025-01-01', expiry_to: '2025-06-30', ...q })],
    ['expired contracts', (q: Record<string, string>) => expiredContracts(u, { expiry: '2025-06-26', ...q })],
  ];

  for (const [name, call] of endpoints) {
    it(`${name}: rejects segment=EQUITY as Not Supported, naming DERIVATIVE`, () => {
      const e = error(call({ underlying: 'NIFTY', segment: 'EQUITY' }));
      expect(e.status).toBe(400);
      expect(e.body.message).toBe('Not Supported');
      expect(e.body.debug_info).toMatch(/DERIVATIVE/);
    });

    it(`${name}: rejects an unknown underlying as Bad Request naming it`, () => {
      const e = error(call({ underlying: 'NOSUCH', segment: 'DERIVATIVE' }));
      expect(e).toMatchObject({ status: 400, body: { message: 'Bad Request' }, param: 'underlying' });
      expect(e.body.debug_info).toMatch(/underlying.*NOSUCH.*invalid or unknown/);
    });

    it(`${name}: requires underlying and segment`, () => {
      expect(error(call({ segment: 'DERIVATIVE' })).param).toBe('underlying');
      expect(error(call({ underlying: 'NIFTY' })).param).toBe('segment');
      expect(error(call({ underlying: 'NIFTY', segment: 'CASH' })).body.debug_info).toMatch(/segment/);
    });
  }
});

describe('current search', () => {
  it('pages with count, page and page_size echoed; 50 by default, at most 100', () => {
    const p1 = data(searchContracts(u, D));
    expect(p1.page).toBe(1);
    expect(p1.page_size).toBe(50);
    expect(p1.instruments).toHaveLength(50);
    expect(p1.count).toBeGreaterThan(3000);
    const p2 = data(searchContracts(u, { ...D, page: '2', page_size: '100' }));
    expect(p2).toMatchObject({ page: 2, page_size: 100, count: p1.count });
    expect(p2.instruments[0]).toEqual(data(searchContracts(u, { ...D, page: '3' })).instruments[0]);
    const last = Math.ceil(p1.count / 100);
    expect(data(searchContracts(u, { ...D, page: String(last), page_size: '100' })).instruments.length).toBe(p1.count - (last - 1) * 100);
    expect(data(searchContracts(u, { ...D, page: String(last + 1), page_size: '100' })).instruments).toHaveLength(0);
    expect(error(searchContracts(u, { ...D, page_size: '101' })).param).toBe('page_size');
    expect(error(searchContracts(u, { ...D, page: '0' })).param).toBe('page');
    expect(error(searchContracts(u, { ...D, page: 'x' })).param).toBe('page');
  });

  it('mixes futures and options without instrument_type; futures have null strike and option type (rule 1)', () => {
    const monthly = u.currentExpiries('NIFTY').find((e) => u.contracts('NIFTY', e).some((c) => c.strike === null))!;
    const r = data(searchContracts(u, { ...D, expiry: monthly, page_size: '100' }));
    const fut = r.instruments.filter((i) => i.strike_price === null);
    expect(fut).toHaveLength(1);
    expect(fut[0]).toMatchObject({ option_type: null, lot_size: 65 });
    expect(fut[0]!.security_id).toMatch(/^\d+$/);
    expect(r.instruments.some((i) => i.option_type === 'CE')).toBe(true);
  });

  it('filters by instrument_type and expiry; no index future on a weekly (rule 2)', () => {
    const weekly = u.currentExpiries('NIFTY').find((e) => u.contracts('NIFTY', e)[0]!.expiryKind === 'W')!;
    expect(weekly).toBeDefined();
    expect(data(searchContracts(u, { ...D, expiry: weekly, instrument_type: 'FUTIDX' })).count).toBe(0);
    const futs = data(searchContracts(u, { ...D, instrument_type: 'FUTIDX' }));
    expect(futs.count).toBe(3);
    expect(data(searchContracts(u, { ...D, instrument_type: 'OPTSTK' })).count).toBe(0);
    expect(error(searchContracts(u, { ...D, instrument_type: 'OPTION' })).param).toBe('instrument_type');
    expect(error(searchContracts(u, { ...D, expiry: '24-11-2026' })).param).toBe('expiry');
  });

  it('applies strike_from, strike_to and option_type to options only (rule 3)', () => {
    const monthly = u.currentExpiries('NIFTY').find((e) => u.contracts('NIFTY', e).some((c) => c.strike === null))!;
    const r = data(searchContracts(u, { ...D, expiry: monthly, strike_from: '24000', strike_to: '24500', option_type: 'PE', page_size: '100' }));
    const opts = r.instruments.filter((i) => i.strike_price !== null);
    expect(opts).toHaveLength(11);
    for (const o of opts) {
      expect(o.option_type).toBe('PE');
      expect(o.strike_price! >= 24000 && o.strike_price! <= 24500).toBe(true);
    }
    expect(r.instruments.filter((i) => i.strike_price === null)).toHaveLength(1);
    expect(r.count).toBe(12);
    expect(error(searchContracts(u, { ...D, strike_from: '25000', strike_to: '24000' })).param).toBe('strike_from');
    expect(error(searchContracts(u, { ...D, strike_from: 'abc' })).param).toBe('strike_from');
    expect(error(searchContracts(u, { ...D, option_type: 'CALL' })).param).toBe('option_type');
  });
});

describe('expiries', () => {
  it('returns upcoming expiries ascending as YYYY-MM-DD', () => {
    const e = data(listExpiries(u, D));
    expect(e.length).toBeGreaterThanOrEqual(7);
    expect([...e].sort()).toEqual(e);
    for (const d of e) {
      expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d >= TEST_TODAY).toBe(true);
    }
    expect(data(listExpiries(u, { underlying: 'RELIANCE', segment: 'DERIVATIVE' }))).toHaveLength(3);
  });
});

describe('expired search', () => {
  it('requires expiry_from and expiry_to, rejects an inverted or over-five-year window', () => {
    expect(error(searchExpiredContracts(u, { ...D, expiry_to: '2025-01-01' })).param).toBe('expiry_from');
    expect(error(searchExpiredContracts(u, { ...D, expiry_from: '2025-01-01' })).param).toBe('expiry_to');
    const inv = error(searchExpiredContracts(u, { ...D, expiry_from: '2025-02-01', expiry_to: '2025-01-01' }));
    expect(inv).toMatchObject({ status: 400, body: { message: 'Bad Request' } });
    expect(inv.body.debug_info).toMatch(/expiry_from/);
    const long = error(searchExpiredContracts(u, { ...D, expiry_from: '2020-01-01', expiry_to: '2025-01-02' }));
    expect(long.body.debug_info).toMatch(/5 years/);
    expect(searchExpiredContracts(u, { ...D, expiry_from: '2021-11-20', expiry_to: '2026-11-20' }).ok).toBe(true);
  });

  it('finds expired contracts without security_id, paged and filtered', () => {
    const r = data(searchExpiredContracts(u, { ...D, expiry_from: '2025-06-01', expiry_to: '2025-06-30', instrument_type: 'FUTIDX' }));
    expect(r.count).toBe(1);
    expect(r.instruments[0]).toEqual({ trading_symbol: 'NIFTY25JUNFUT', expiry: '2025-06-26', strike_price: null, option_type: null, lot_size: 75 });
    expect(r.instruments[0]).not.toHaveProperty('security_id');
    const all = data(searchExpiredContracts(u, { ...D, expiry_from: '2021-11-20', expiry_to: '2026-11-20', page: '3', page_size: '100' }));
    expect(all.count).toBeGreaterThan(100_000);
    expect(all.instruments).toHaveLength(100);
    // Only expired ones: a window reaching into the future stops at today.
    const future = data(searchExpiredContracts(u, { ...D, expiry_from: '2026-11-01', expiry_to: '2027-01-31' }));
    expect(future.count).toBeGreaterThan(0);
  });
});

describe('expired expiries and contracts', () => {
  it('lists expired expiries newest first, within at most a year', () => {
    const e = data(listExpiredExpiries(u, { ...D, expiry_from: '2025-01-01', expiry_to: '2025-12-31' }));
    expect([...e].sort().reverse()).toEqual(e);
    expect(e.length).toBeGreaterThan(45);
    expect(e).toContain('2025-06-26');
    expect(error(listExpiredExpiries(u, { ...D, expiry_from: '2025-01-01', expiry_to: '2026-01-02' })).body.debug_info).toMatch(/1 year/);
    expect(error(listExpiredExpiries(u, { ...D, expiry_from: '2025-03-01', expiry_to: '2025-01-01' })).param).toBe('expiry_from');
    expect(error(listExpiredExpiries(u, { ...D, expiry_from: '2025-01-01' })).param).toBe('expiry_to');
  });

  it('returns the full chain of an expired expiry in one response, about 460-480 rows', () => {
    const expiries = data(listExpiredExpiries(u, { ...D, expiry_from: '2025-11-21', expiry_to: '2026-11-19' }));
    for (const expiry of expiries.slice(0, 10)) {
      const rows = data(expiredContracts(u, { ...D, expiry }));
      expect(rows.length).toBeGreaterThanOrEqual(460);
      expect(rows.length).toBeLessThanOrEqual(480);
      for (const r of rows) expect(r.expiry).toBe(expiry);
    }
    const rows = data(expiredContracts(u, { ...D, expiry: '2025-06-26' }));
    expect(rows[0]).toMatchObject({ instrument_type: 'FUTIDX', strike_price: null, option_type: null });
    expect(rows.filter((r) => r.instrument_type === 'OPTIDX').length % 2).toBe(0);
    expect(data(expiredContracts(u, { ...D, expiry: '2025-06-26', instrument_type: 'FUTIDX' }))).toHaveLength(1);
  });

  it('rejects an expiry the expired expiries endpoint would not return (rule 4)', () => {
    for (const expiry of ['2025-06-27', u.currentExpiries('NIFTY')[0]!, '2019-01-03']) {
      const e = error(expiredContracts(u, { ...D, expiry }));
      expect(e).toMatchObject({ status: 400, body: { message: 'Bad Request' }, param: 'expiry' });
      expect(e.body.debug_info).toMatch(/expiry.*invalid or unknown/);
    }
    expect(error(expiredContracts(u, D)).param).toBe('expiry');
  });
});
