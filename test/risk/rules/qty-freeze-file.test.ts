/**
 * The reader of NSE's qtyfreeze file (CSV text despite its .xls name). The files here are written
 * by hand in NSE's format; their numbers are illustrative, not NSE's.
 */
import { describe, expect, it } from 'vitest';
import { CsvError } from '../../../src/core/errors.js';
import { parseQtyFreeze } from '../../../src/risk/rules/qty-freeze-file.js';
import { ILLUSTRATIVE_QTYFREEZE } from '../../support/stock-freeze.js';

const read = (text: string | Uint8Array) => parseQtyFreeze(text, 'qtyfreeze.xls');
const error = (text: string | Uint8Array): string => {
  try {
    read(text);
  } catch (e) {
    expect(e).toBeInstanceOf(CsvError);
    return (e as Error).message;
  }
  throw new Error('expected the file to be refused');
};

describe("NSE's qtyfreeze file", () => {
  it('reads padded header names and symbols, quoted numbers with thousands commas, CRLF lines and a BOM', () => {
    expect(read(ILLUSTRATIVE_QTYFREEZE)).toEqual([
      { symbol: 'NIFTY', limit: 1800, line: 2 },
      { symbol: 'RELIANCE', limit: 3000, line: 3 },
      { symbol: 'INFY', limit: 2000, line: 4 },
      { symbol: 'M&M', limit: 4200, line: 5 },
    ]);
    const bytes = new TextEncoder().encode(`\uFEFFSYMBOL,VOL_FRZ_QTY\nBAJAJ-AUTO,"1,00,000"\n`);
    expect(read(bytes)).toEqual([{ symbol: 'BAJAJ-AUTO', limit: 100_000, line: 2 }]);
    // Other columns around the two it needs, in any order.
    expect(read('SR_NO,VOL_FRZ_QTY ,UNDERLYING,SYMBOL\n1,"53,900",Nifty Financial,NIFTYFPI\n')).toEqual([{ symbol: 'NIFTYFPI', limit: 53_900, line: 2 }]);
  });

  it('refuses an HTML page or a binary workbook as a failed download, by name', () => {
    expect(error('<!DOCTYPE html><html><body>Access Denied</body></html>')).toMatch(/^qtyfreeze\.xls: is an HTML page, not NSE's qtyfreeze CSV: the download failed/);
    expect(error('\n  <html><head><title>404</title></head></html>')).toMatch(/is an HTML page/);
    expect(error(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toMatch(/is a binary Excel workbook \(OLE2\).*the download failed/);
    expect(error(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]))).toMatch(/is a ZIP archive/);
    expect(error(Uint8Array.from([0x53, 0x59, 0x4d, 0, 0x42]))).toMatch(/is binary \(it holds NUL bytes\)/);
  });

  it('names the file and line of a wrong header, and refuses an empty file or one without rows', () => {
    expect(error('\n\nSYMBOL,QTY\nNIFTY,1800\n')).toMatch(/^qtyfreeze\.xls:3: expected a header with SYMBOL and VOL_FRZ_QTY \(NSE's qtyfreeze file\), got "SYMBOL,QTY"/);
    expect(error('')).toMatch(/qtyfreeze\.xls: is empty/);
    expect(error('SYMBOL,VOL_FRZ_QTY\n\n')).toMatch(/has a header but no rows/);
  });

  it('reports every bad row at once as file:line: what is wrong', () => {
    const text = [
      'SYMBOL    ,VOL_FRZ_QTY',
      'RELIANCE  ,"3,000"',
      'INFY      ,two thousand',
      'TCS       ,0',
      '          ,900',
      'HDFCBANK  ,"1,2,3"',
      'SBIN      ,"4,500',
      'ITC       ,900,extra',
      'RELIANCE  ,3500',
      'INFY      ,-5',
    ].join('\n');
    const msg = error(text);
    expect(msg.split('\n')).toEqual([
      'qtyfreeze.xls: 8 bad rows in NSE\'s qtyfreeze file:',
      'qtyfreeze.xls:3: VOL_FRZ_QTY of INFY: expected a positive whole number of units (e.g. 1800 or "1,440"), got "two thousand"',
      'qtyfreeze.xls:4: VOL_FRZ_QTY of TCS: expected a positive whole number of units (e.g. 1800 or "1,440"), got "0"',
      'qtyfreeze.xls:5: SYMBOL: expected an F&O underlying symbol (e.g. RELIANCE, M&M, BAJAJ-AUTO), got an empty field',
      'qtyfreeze.xls:6: VOL_FRZ_QTY of HDFCBANK: expected a positive whole number of units (e.g. 1800 or "1,440"), got "1,2,3"',
      'qtyfreeze.xls:7: unbalanced quote',
      'qtyfreeze.xls:8: expected 2 columns as in the header, got 3',
      'qtyfreeze.xls:9: RELIANCE is listed twice with different limits (line 2: 3000, here: 3500)',
      'qtyfreeze.xls:10: VOL_FRZ_QTY of INFY: expected a positive whole number of units (e.g. 1800 or "1,440"), got "-5"',
    ]);
  });

  it('accepts a row repeated with the same limit once', () => {
    expect(read('SYMBOL,VOL_FRZ_QTY\nINFY,2000\nINFY,"2,000"\n')).toEqual([{ symbol: 'INFY', limit: 2000, line: 2 }]);
  });
});
