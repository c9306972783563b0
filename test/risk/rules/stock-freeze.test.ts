/**
 * Stock F&O freeze limits from imported qtyfreeze files, dated: each stored file is in force from
 * its date until the next; index limits keep coming from config/market-rules/freeze-quantities.yaml.
 * The files are hand-written in NSE's format with illustrative numbers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src/core/instruments.js';
import { freezeQuantity } from '../../../src/risk/rules/freeze-quantity.js';
import { ConfigError, CsvError } from '../../../src/core/errors.js';
import { stockFreezeHome, type StockFreezeHome } from '../../support/stock-freeze.js';

const contract = (symbol: string, kind: Instrument['kind'], exchange: Instrument['exchange'] = 'NSE'): Instrument => ({
  id: `${exchange === 'NSE' ? 'NFO' : 'BFO'}_9`, exchange, segment: 'FNO', securityId: '9', kind, tradingSymbol: `${symbol}26NOVFUT`, symbol, lotSize: 500, tickSize: 10, expiry: '2026-11-24',
});
const RELIANCE_FUT = contract('RELIANCE', 'FUTSTK');

let h: StockFreezeHome;
beforeEach(() => {
  h = stockFreezeHome();
});
afterEach(() => h.close());

describe('stock F&O freeze limits (imported qtyfreeze revisions)', () => {
  it('knows no stock limit while nothing is imported: stock orders are not checked, as before', () => {
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-20')).toBeUndefined();
  });

  it('uses the revision in force on the order day, none before the first', () => {
    h.store('2026-11-02');
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-01')).toBeUndefined();
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-02')).toBe(3000);
    expect(freezeQuantity(contract('M&M', 'OPTSTK'), '2026-11-19')).toBe(4200);
    // A revision imported later (as while a daemon runs) is seen by the next lookup.
    h.store('2026-11-20', 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,"3,500"\n');
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-19')).toBe(3000);
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-20')).toBe(3500);
    expect(freezeQuantity(RELIANCE_FUT, '2027-03-01')).toBe(3500);
    // A stock the revision in force does not list has no limit known.
    expect(freezeQuantity(contract('INFY', 'FUTSTK'), '2026-11-20')).toBeUndefined();
    expect(freezeQuantity(contract('INFY', 'FUTSTK'), '2026-11-19')).toBe(2000);
  });

  it('leaves index contracts to config (the file\'s NIFTY row is not used) and BSE stock contracts unchecked', () => {
    h.store('2026-11-02', 'SYMBOL,VOL_FRZ_QTY\nNIFTY,999\nRELIANCE,3000\n');
    expect(freezeQuantity(contract('NIFTY', 'FUTIDX'), '2026-11-20')).toBe(1800);
    expect(freezeQuantity(contract('RELIANCE', 'FUTSTK', 'BSE'), '2026-11-20')).toBeUndefined();
    // Cash equity has none.
    expect(freezeQuantity({ ...RELIANCE_FUT, segment: 'EQUITY', kind: 'EQUITY' }, '2026-11-20')).toBeUndefined();
  });

  it('names the stored file and line when a revision is damaged', () => {
    const file = h.store('2026-11-02', 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,lots\n');
    expect(() => freezeQuantity(RELIANCE_FUT, '2026-11-20')).toThrow(CsvError);
    expect(() => freezeQuantity(RELIANCE_FUT, '2026-11-20')).toThrow(`${file}:2: VOL_FRZ_QTY of RELIANCE`);
  });

  it('refuses a file named as a date that is none, on every lookup until it is mended', () => {
    // Placed by hand before anything reads the folder.
    mkdirSync(h.dir, { recursive: true });
    writeFileSync(join(h.dir, 'notes.txt'), 'not a revision');
    writeFileSync(join(h.dir, '2026-11-02.csv'), 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,3000\n');
    writeFileSync(join(h.dir, '2026-02-30.csv'), 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,3000\n');
    expect(() => freezeQuantity(RELIANCE_FUT, '2026-11-20')).toThrow(ConfigError);
    expect(() => freezeQuantity(RELIANCE_FUT, '2026-11-20')).toThrow(/2026-02-30 is not a calendar date; rename or remove it/);
  });

  it('passes over files that are not revisions', () => {
    mkdirSync(h.dir, { recursive: true });
    writeFileSync(join(h.dir, 'notes.txt'), 'not a revision');
    writeFileSync(join(h.dir, '.stock-freeze-2026-11-03.1.tmp'), 'half a file');
    writeFileSync(join(h.dir, '2026-11-02.csv'), 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,3000\n');
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-20')).toBe(3000);
  });
});
