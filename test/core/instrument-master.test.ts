import { describe, expect, it } from 'vitest';
import { CsvError } from '../../src/core/errors.js';
import { MASTER_COLUMNS, parseExpiry, parseInstrumentMaster } from '../../src/core/instrument-master.js';

const HEADER = MASTER_COLUMNS.join(',');
const row = (o: Partial<Record<(typeof MASTER_COLUMNS)[number], string>>) => MASTER_COLUMNS.map((c) => o[c] ?? '').join(',');

const EQUITY = [
  HEADER,
  row({ EXCH: 'NSE', SEGMENT: 'E', SECURITY_ID: '2885', INSTRUMENT_NAME: 'EQUITY', EXPIRY_CODE: '0', TRADING_SYMBOL: 'RELIANCE', LOT_UNITS: '1', CUSTOM_SYMBOL: 'Reliance Industries', TICK_SIZE: '0.10', SERIES: 'EQ', SYMBOL_NAME: 'RELIANCE' }),
  row({ EXCH: 'BSE', SEGMENT: 'E', SECURITY_ID: '500325', INSTRUMENT_NAME: 'EQUITY', TRADING_SYMBOL: 'RELIANCE', LOT_UNITS: '1', TICK_SIZE: '0.05', SERIES: 'A', SYMBOL_NAME: 'RELIANCE' }),
].join('\n');

const FNO = [
  HEADER,
  row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '43219', INSTRUMENT_NAME: 'OPTIDX', EXPIRY_CODE: '1', TRADING_SYMBOL: 'NIFTY24AUG24500CE', LOT_UNITS: '25', CUSTOM_SYMBOL: '"NIFTY 29 AUG 24500 CALL, weekly"', EXPIRY_DATE: '2024-08-29 14:30:00', STRIKE_PRICE: '24500.00', OPTION_TYPE: 'CE', TICK_SIZE: '0.05', EXPIRY_FLAG: 'W', SEM_EXCH_INSTRUMENT_TYPE: 'OP', SYMBOL_NAME: 'NIFTY' }),
  row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '35001', INSTRUMENT_NAME: 'FUTIDX', TRADING_SYMBOL: 'NIFTY24AUGFUT', LOT_UNITS: '25', EXPIRY_DATE: '29-AUG-2024', STRIKE_PRICE: '-0.01', OPTION_TYPE: 'XX', TICK_SIZE: '0.05', EXPIRY_FLAG: 'M', SYMBOL_NAME: 'NIFTY' }),
  row({ EXCH: 'NSE', SEGMENT: 'C', SECURITY_ID: '9001', INSTRUMENT_NAME: 'FUTCUR', TRADING_SYMBOL: 'USDINR24AUGFUT', LOT_UNITS: '1000', EXPIRY_DATE: '2024-08-28', TICK_SIZE: '0.0025', SYMBOL_NAME: 'USDINR' }),
].join('\r\n');

describe('instrument master parser (spec 2.3)', () => {
  it('reads the 16-column equity file into instruments with scrip codes', () => {
    const { instruments, errors } = parseInstrumentMaster(EQUITY, 'equity');
    expect(errors).toEqual([]);
    expect(instruments).toHaveLength(2);
    expect(instruments[0]).toMatchObject({ id: 'NSE_2885', exchange: 'NSE', segment: 'EQUITY', kind: 'EQUITY', tradingSymbol: 'RELIANCE', lotSize: 1, tickSize: 10, series: 'EQ' });
    expect(instruments[1]!.id).toBe('BSE_500325');
  });

  it('reads options and futures: expiry forms, strikes in paise, quoted commas, CRLF', () => {
    const { instruments, errors, skipped } = parseInstrumentMaster(FNO, 'fno');
    expect(errors).toEqual([]);
    expect(instruments[0]).toMatchObject({ id: 'NFO_43219', kind: 'OPTIDX', lotSize: 25, expiry: '2024-08-29', strike: 2450000, optionType: 'CE', displayName: 'NIFTY 29 AUG 24500 CALL, weekly' });
    expect(instruments[1]).toMatchObject({ id: 'NFO_35001', kind: 'FUTIDX', expiry: '2024-08-29' });
    expect(instruments[1]!.strike).toBeUndefined();
    expect(skipped).toEqual({ 'currency contract with a sub-paisa tick': 1 });
  });

  it('reads the 3-column index file by position (SEGMENT holds the index name)', () => {
    const { instruments } = parseInstrumentMaster('EXCH,SEGMENT,SECURITY_ID\nNSE,NIFTY 50,13\nNSE,NIFTY BANK,25\nBSE,SENSEX,51\n', 'index');
    expect(instruments.map((i) => [i.id, i.tradingSymbol, i.kind])).toEqual([
      ['NIDX_13', 'NIFTY 50', 'INDEX'],
      ['NIDX_25', 'NIFTY BANK', 'INDEX'],
      ['BIDX_51', 'SENSEX', 'INDEX'],
    ]);
  });

  it('reports each malformed row with its line number and keeps the good ones', () => {
    const broken = [
      HEADER,
      row({ EXCH: 'NSE', SEGMENT: 'E', SECURITY_ID: '2885', INSTRUMENT_NAME: 'EQUITY', TRADING_SYMBOL: 'RELIANCE', LOT_UNITS: '1', TICK_SIZE: '0.05' }),
      'NSE,E,1333,EQUITY', // too few columns
      row({ EXCH: 'MCX', SEGMENT: 'E', SECURITY_ID: '1', TRADING_SYMBOL: 'X', TICK_SIZE: '0.05' }),
      row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '2', INSTRUMENT_NAME: 'OPTSTK', TRADING_SYMBOL: 'Y', LOT_UNITS: '1', EXPIRY_DATE: '2024-08-29', STRIKE_PRICE: '100', OPTION_TYPE: 'ZZ', TICK_SIZE: '0.05' }),
      row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '3', INSTRUMENT_NAME: 'FUTSTK', TRADING_SYMBOL: 'Z', LOT_UNITS: '1', EXPIRY_DATE: 'soon', TICK_SIZE: '0.05' }),
      row({ EXCH: 'NSE', SEGMENT: 'E', SECURITY_ID: 'abc', TRADING_SYMBOL: 'W', TICK_SIZE: '0.05' }),
      row({ EXCH: 'NSE', SEGMENT: 'E', SECURITY_ID: '4', TRADING_SYMBOL: 'V', LOT_UNITS: '1.5', TICK_SIZE: '0.05' }),
      row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '5', INSTRUMENT_NAME: 'FUTSTK', TRADING_SYMBOL: 'RELIANCE26DECFUT', LOT_UNITS: '', EXPIRY_DATE: '2026-12-29', TICK_SIZE: '0.10', SYMBOL_NAME: 'RELIANCE' }),
      row({ EXCH: 'NSE', SEGMENT: 'D', SECURITY_ID: '6', INSTRUMENT_NAME: 'OPTSTK', TRADING_SYMBOL: 'INFY26DEC1500CE', LOT_UNITS: '0', EXPIRY_DATE: '2026-12-29', STRIKE_PRICE: '1500', OPTION_TYPE: 'CE', TICK_SIZE: '0.05', SYMBOL_NAME: 'INFY' }),
    ].join('\n');
    const { instruments, errors } = parseInstrumentMaster(broken, 'equity', { sourceName: 'equity.csv' });
    expect(instruments.map((i) => i.id)).toEqual(['NSE_2885']);
    expect(errors).toEqual([
      { line: 3, message: 'expected 16 columns, got 4' },
      { line: 4, message: 'EXCH: expected NSE or BSE, got "MCX"' },
      { line: 5, message: 'OPTION_TYPE: expected CE or PE for an option, got "ZZ"' },
      { line: 6, message: 'EXPIRY_DATE: expected a date for a FUTSTK contract, got "soon"' },
      { line: 7, message: 'SECURITY_ID: expected a numeric id, got "abc"' },
      { line: 8, message: 'LOT_UNITS: expected a whole number, got "1.5"' },
      // A stock future or option without its lot is not traded in lots of 1.
      { line: 9, message: 'LOT_UNITS: an FUTSTK contract needs its lot size, got ""' },
      { line: 10, message: 'LOT_UNITS: an OPTSTK contract needs its lot size, got "0"' },
    ]);
  });

  it('in strict mode rejects the file at the first bad row, naming file and line', () => {
    const text = `${HEADER}\nNSE,E,1333,EQUITY\n`;
    expect(() => parseInstrumentMaster(text, 'equity', { strict: true, sourceName: 'equity.csv' })).toThrow(CsvError);
    expect(() => parseInstrumentMaster(text, 'equity', { strict: true, sourceName: 'equity.csv' })).toThrow('equity.csv:2: expected 16 columns, got 4');
  });

  it('rejects a header that lacks spec columns, and an empty file', () => {
    expect(() => parseInstrumentMaster('EXCH,SEGMENT,SECURITY_ID\nNSE,E,1\n', 'equity')).toThrow(/header lacks columns INSTRUMENT_NAME/);
    expect(() => parseInstrumentMaster('', 'fno')).toThrow(/file is empty/);
  });

  it('parses expiry dates in the forms seen in masters', () => {
    expect(parseExpiry('2024-08-29')).toBe('2024-08-29');
    expect(parseExpiry('29-Aug-2024')).toBe('2024-08-29');
    expect(parseExpiry('29/08/2024')).toBe('2024-08-29');
    expect(parseExpiry('2024-02-30')).toBeUndefined();
    expect(parseExpiry('0')).toBeUndefined();
  });
});
