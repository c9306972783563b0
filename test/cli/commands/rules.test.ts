/**
 * `tarang rules import-freeze FILE --as-of DATE` and `tarang rules ls`: NSE's qtyfreeze file is
 * checked, stored as a dated revision under the state folder, and used by the freeze rule from that
 * day. The files are hand-written in NSE's format; their numbers are illustrative.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/cli/commands/rules.js';
import type { Instrument } from '../../../src/core/instruments.js';
import { freezeQuantity } from '../../../src/risk/rules/freeze-quantity.js';
import { stockFreezeDir, useStockFreezeDir } from '../../../src/risk/rules/stock-freeze.js';
import { ILLUSTRATIVE_QTYFREEZE } from '../../support/stock-freeze.js';

const root = mkdtempSync(join(tmpdir(), 'tarang-rules-cli-'));
let n = 0;
const freshHome = (): string => join(root, `home-${++n}`);
const file = (name: string, text: string | Uint8Array): string => {
  const f = join(root, name);
  writeFileSync(f, text);
  return f;
};

async function rulesCli(args: readonly string[]): Promise<string> {
  const program = new Command('tarang').exitOverride();
  register(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    await program.parseAsync(['node', 'tarang', 'rules', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

const RELIANCE_FUT: Instrument = { id: 'NFO_1', exchange: 'NSE', segment: 'FNO', securityId: '1', kind: 'FUTSTK', tradingSymbol: 'RELIANCE26DECFUT', symbol: 'RELIANCE', lotSize: 500, tickSize: 10 };

afterEach(() => useStockFreezeDir(undefined));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tarang rules import-freeze', () => {
  it('stores the day\'s file as the revision in force from --as-of, which the freeze rule then uses', async () => {
    const home = freshHome();
    const src = file('qtyfreeze.xls', ILLUSTRATIVE_QTYFREEZE);
    const out = await rulesCli(['import-freeze', src, '--as-of', '2026-11-20', '--state-dir', home]);
    const stored = join(stockFreezeDir(home), '2026-11-20.csv');
    expect(out).toContain('Stored: NSE stock F&O freeze limits of 3 underlyings, in force from 2026-11-20 until a later file is imported');
    expect(out).toContain(stored);
    expect(out).toContain('1 index row (NIFTY) not used: index limits come from config/market-rules/freeze-quantities.yaml');
    // Kept as downloaded, nothing else left in the folder.
    expect(readFileSync(stored, 'utf8')).toBe(ILLUSTRATIVE_QTYFREEZE);
    expect(readdirSync(stockFreezeDir(home))).toEqual(['2026-11-20.csv']);
    useStockFreezeDir(stockFreezeDir(home));
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-20')).toBe(3000);
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-19')).toBeUndefined();

    // An earlier revision says until when it is in force; the same file again changes nothing.
    const older = file('qtyfreeze-oct.csv', 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,"2,500"\n');
    expect(await rulesCli(['import-freeze', older, '--as-of', '2026-10-01', '--state-dir', home])).toContain('in force from 2026-10-01 until 2026-11-20 (the next stored revision)');
    // A fresh reader (a new process): a running one sees the folder change by its time, which two
    // imports within one kernel tick share (test/risk/rules/stock-freeze.test.ts covers that path).
    useStockFreezeDir(stockFreezeDir(home));
    expect(freezeQuantity(RELIANCE_FUT, '2026-10-15')).toBe(2500);
    expect(await rulesCli(['import-freeze', src, '--as-of', '2026-11-20', '--state-dir', home])).toMatch(/^Already stored:/);
  });

  it('keeps a different file stored for the same day unless --replace', async () => {
    const home = freshHome();
    await rulesCli(['import-freeze', file('a.csv', ILLUSTRATIVE_QTYFREEZE), '--as-of', '2026-11-20', '--state-dir', home]);
    const b = file('b.csv', 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,3500\n');
    await expect(rulesCli(['import-freeze', b, '--as-of', '2026-11-20', '--state-dir', home])).rejects.toThrow(/a different file is already stored as the revision in force from 2026-11-20 .*give --replace/);
    const json = JSON.parse(await rulesCli(['import-freeze', b, '--as-of', '2026-11-20', '--state-dir', home, '--replace', '--json'])) as Record<string, unknown>;
    expect(json).toMatchObject({ state: 'replaced', from: '2026-11-20', until: null, stocks: 1, indexRows: [] });
    useStockFreezeDir(stockFreezeDir(home));
    expect(freezeQuantity(RELIANCE_FUT, '2026-11-20')).toBe(3500);
  });

  it('refuses a failed download, a bad row (file:line) or a bad date, and stores nothing', async () => {
    const home = freshHome();
    const args = (f: string, asOf = '2026-11-20') => ['import-freeze', f, '--as-of', asOf, '--state-dir', home];
    const html = file('denied.xls', '<html><body>Access Denied</body></html>');
    await expect(rulesCli(args(html))).rejects.toThrow(`${html}: is an HTML page, not NSE's qtyfreeze CSV: the download failed`);
    const xls = file('workbook.xls', Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    await expect(rulesCli(args(xls))).rejects.toThrow(/is a binary Excel workbook/);
    const bad = file('bad.csv', 'SYMBOL,VOL_FRZ_QTY\nRELIANCE,3000\nINFY,n/a\n');
    await expect(rulesCli(args(bad))).rejects.toThrow(`${bad}:3: VOL_FRZ_QTY of INFY`);
    await expect(rulesCli(args(file('ok.csv', ILLUSTRATIVE_QTYFREEZE), '2026-02-30'))).rejects.toThrow('--as-of: expected a calendar date as YYYY-MM-DD, got "2026-02-30"');
    await expect(rulesCli(args(join(root, 'missing.xls')))).rejects.toThrow(/rules import-freeze: cannot read .*missing\.xls/);
    expect(existsSync(stockFreezeDir(home))).toBe(false);
  });
});

describe('tarang rules ls', () => {
  it('shows the index and stock revisions in force on a date, and says when none is known', async () => {
    const home = freshHome();
    await rulesCli(['import-freeze', file('nov.csv', ILLUSTRATIVE_QTYFREEZE), '--as-of', '2026-11-02', '--state-dir', home]);
    const out = await rulesCli(['ls', '--date', '2026-11-20', '--state-dir', home]);
    expect(out).toContain('Market rules in force on 2026-11-20');
    expect(out).toContain('NSE indices, from 2026-02-01: BANKNIFTY 600, NIFTY 1800, FINNIFTY 1800, MIDCPNIFTY 2800, NIFTYNXT50 600');
    expect(out).toContain('BSE indices, from 2026-02-01: SENSEX 1000, BANKEX 900');
    expect(out).toMatch(/NSE stocks, from 2026-11-02: 4 underlyings \(.*2026-11-02\.csv\)/);
    expect(out).toContain('F&O execution range, from 2016-02-08: futures 5%');
    const early = await rulesCli(['ls', '--date', '2024-06-03', '--state-dir', home]);
    expect(early).toContain('BSE indices: none known on this date (the first revision is from 2026-02-01); orders are not checked');
    expect(early).toContain('NSE stocks: none known on this date; stock F&O orders are not checked');
    const doc = JSON.parse(await rulesCli(['ls', '--date', '2026-11-20', '--state-dir', home, '--json'])) as { freezeQuantities: { stocks: { from: string; underlyings: number }; stockRevisions: string[] } };
    expect(doc.freezeQuantities.stocks).toMatchObject({ from: '2026-11-02', underlyings: 4 });
    expect(doc.freezeQuantities.stockRevisions).toEqual(['2026-11-02']);
  });
});
