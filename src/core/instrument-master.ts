/**
 * Parser for the broker's instrument master CSV (spec 2.3). `source=equity` and `source=fno` files
 * have 16 named columns; `source=index` files have three, read by position (the second, labelled
 * SEGMENT, holds the index name). A malformed row is reported with its line number and skipped,
 * never silently mis-read; `strict: true` rejects the file at the first bad row instead.
 */
import { CsvError } from './errors.js';
import { csvLines, splitCsvLine } from './csv.js';
import type { Exchange, Segment } from './enums.js';
import { InstrumentKind, scripCode, type Instrument, type OptionType } from './instruments.js';
import { parsePaise } from './money.js';

export const MASTER_COLUMNS = [
  'EXCH',
  'SEGMENT',
  'SECURITY_ID',
  'INSTRUMENT_NAME',
  'EXPIRY_CODE',
  'TRADING_SYMBOL',
  'LOT_UNITS',
  'CUSTOM_SYMBOL',
  'EXPIRY_DATE',
  'STRIKE_PRICE',
  'OPTION_TYPE',
  'TICK_SIZE',
  'EXPIRY_FLAG',
  'SEM_EXCH_INSTRUMENT_TYPE',
  'SERIES',
  'SYMBOL_NAME',
] as const;
export type MasterColumn = (typeof MASTER_COLUMNS)[number];

export const MasterSource = { EQUITY: 'equity', FNO: 'fno', INDEX: 'index' } as const;
export type MasterSource = (typeof MasterSource)[keyof typeof MasterSource];

export interface MasterRowError {
  readonly line: number;
  readonly message: string;
}

export interface ParsedMaster {
  readonly instruments: Instrument[];
  /** Rows that could not be read, each with its 1-based line number. */
  readonly errors: MasterRowError[];
  /** Rows read but deliberately left out (e.g. currency contracts with sub-paisa ticks), by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

export interface ParseMasterOptions {
  /** Name used in error messages (file path or URL). */
  readonly sourceName?: string;
  /** Throw CsvError at the first bad row instead of skipping it. */
  readonly strict?: boolean;
}

const DEFAULT_TICK = 5; // 0.05 rupee, the NSE default, when the column is blank

export function parseInstrumentMaster(text: string, source: MasterSource, options: ParseMasterOptions = {}): ParsedMaster {
  const name = options.sourceName ?? `instrument master (${source})`;
  const lines = csvLines(text);
  const instruments: Instrument[] = [];
  const errors: MasterRowError[] = [];
  const skipped: Record<string, number> = {};
  const fail = (line: number, message: string): void => {
    if (options.strict) throw new CsvError(`${name}:${line}: ${message}`, { source: name, line });
    errors.push({ line, message });
  };

  if (lines.length === 0) throw new CsvError(`${name}: file is empty`, { source: name });

  if (source === 'index') {
    lines.forEach((raw, idx) => {
      const line = idx + 1;
      if (raw.trim() === '') return;
      const f = splitCsvLine(raw);
      if (!Array.isArray(f)) return fail(line, f.error);
      if (idx === 0 && !/^\d+$/.test((f[2] ?? '').trim())) return; // header row
      if (f.length < 3) return fail(line, `expected 3 columns (EXCH, SEGMENT, SECURITY_ID), got ${f.length}`);
      const exchange = parseExchange(f[0]!);
      const indexName = f[1]!.trim();
      const securityId = f[2]!.trim();
      if (!exchange) return fail(line, `EXCH: expected NSE or BSE, got ${JSON.stringify(f[0])}`);
      if (!/^\d+$/.test(securityId)) return fail(line, `SECURITY_ID: expected a numeric id, got ${JSON.stringify(securityId)}`);
      if (!indexName) return fail(line, 'SEGMENT (index name): empty');
      instruments.push({
        id: scripCode(exchange, 'INDEX', securityId),
        exchange,
        segment: 'INDEX',
        securityId,
        kind: InstrumentKind.INDEX,
        tradingSymbol: indexName,
        symbol: indexName,
        lotSize: 1,
        tickSize: DEFAULT_TICK,
      });
    });
    return { instruments, errors, skipped };
  }

  const header = splitCsvLine(lines[0]!);
  if (!Array.isArray(header)) throw new CsvError(`${name}:1: header: ${header.error}`, { source: name, line: 1 });
  const col = new Map(header.map((h, i) => [h.trim().toUpperCase(), i]));
  const missing = MASTER_COLUMNS.filter((c) => !col.has(c));
  if (missing.length > 0) {
    throw new CsvError(`${name}:1: header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (spec 2.3 lists 16)`, {
      source: name,
      missing,
    });
  }
  const idx = Object.fromEntries(MASTER_COLUMNS.map((c) => [c, col.get(c)!])) as Record<MasterColumn, number>;

  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const f = splitCsvLine(raw);
    if (!Array.isArray(f)) {
      fail(line, f.error);
      continue;
    }
    if (f.length !== header.length) {
      fail(line, `expected ${header.length} columns, got ${f.length}`);
      continue;
    }
    const get = (c: MasterColumn): string => (f[idx[c]] ?? '').trim();
    const row = readRow(get, source);
    if ('error' in row) fail(line, row.error);
    else if ('skip' in row) skipped[row.skip] = (skipped[row.skip] ?? 0) + 1;
    else instruments.push(row.instrument);
  }
  return { instruments, errors, skipped };
}

type RowResult = { instrument: Instrument } | { error: string } | { skip: string };

function readRow(get: (c: MasterColumn) => string, source: MasterSource): RowResult {
  const exchange = parseExchange(get('EXCH'));
  if (!exchange) return { error: `EXCH: expected NSE or BSE, got ${JSON.stringify(get('EXCH'))}` };
  const securityId = get('SECURITY_ID');
  if (!/^\d+$/.test(securityId)) return { error: `SECURITY_ID: expected a numeric id, got ${JSON.stringify(securityId)}` };
  const segment = parseSegment(get('SEGMENT'), source);
  if (!segment) return { error: `SEGMENT: unknown segment ${JSON.stringify(get('SEGMENT'))}` };
  const tradingSymbol = get('TRADING_SYMBOL');
  if (!tradingSymbol) return { error: 'TRADING_SYMBOL: empty' };
  const kind = parseKind(get('INSTRUMENT_NAME'), segment);

  const lotText = get('LOT_UNITS');
  const lotSize = lotText === '' ? 1 : Number(lotText);
  if (!Number.isFinite(lotSize) || lotSize < 0 || !Number.isInteger(lotSize)) {
    return { error: `LOT_UNITS: expected a whole number, got ${JSON.stringify(lotText)}` };
  }
  // A futures or options contract without its lot would trade in lots of 1, which the exchange
  // refuses: the row is reported, not guessed at (cash rows may leave it blank: lot 1).
  if ((kind === 'FUTIDX' || kind === 'FUTSTK' || kind === 'OPTIDX' || kind === 'OPTSTK') && !(lotSize > 0 && lotText !== '')) {
    return { error: `LOT_UNITS: an ${kind} contract needs its lot size, got ${JSON.stringify(lotText)}` };
  }

  const tickText = get('TICK_SIZE');
  let tickSize = DEFAULT_TICK;
  if (tickText !== '') {
    const t = Number(tickText);
    if (!Number.isFinite(t) || t <= 0) return { error: `TICK_SIZE: expected a positive number, got ${JSON.stringify(tickText)}` };
    try {
      tickSize = parsePaise(tickText, 'TICK_SIZE');
    } catch {
      // Sub-paisa ticks (currency derivatives, 0.0025) cannot be priced exactly in paise.
      return segment === 'CURRENCY' ? { skip: 'currency contract with a sub-paisa tick' } : { error: `TICK_SIZE: ${tickText} is not a whole number of paise` };
    }
    if (tickSize <= 0) return { error: `TICK_SIZE: expected a positive number, got ${JSON.stringify(tickText)}` };
  }

  const isDerivative = kind !== 'EQUITY' && kind !== 'INDEX';
  let expiry: string | undefined;
  if (isDerivative) {
    expiry = parseExpiry(get('EXPIRY_DATE'));
    if (!expiry) return { error: `EXPIRY_DATE: expected a date for a ${kind} contract, got ${JSON.stringify(get('EXPIRY_DATE'))}` };
  }

  let optionType: OptionType | undefined;
  let strike: number | undefined;
  const ot = get('OPTION_TYPE').toUpperCase();
  if (kind === 'OPTIDX' || kind === 'OPTSTK' || ot === 'CE' || ot === 'PE') {
    if (ot !== 'CE' && ot !== 'PE') return { error: `OPTION_TYPE: expected CE or PE for an option, got ${JSON.stringify(get('OPTION_TYPE'))}` };
    optionType = ot;
    try {
      strike = parsePaise(get('STRIKE_PRICE'), 'STRIKE_PRICE');
    } catch (e) {
      return { error: (e as Error).message };
    }
    if (strike <= 0) return { error: `STRIKE_PRICE: expected a positive strike for an option, got ${JSON.stringify(get('STRIKE_PRICE'))}` };
  }

  const series = get('SERIES');
  const displayName = get('CUSTOM_SYMBOL');
  const instrument: Instrument = {
    id: scripCode(exchange, segment, securityId),
    exchange,
    segment,
    securityId,
    kind,
    tradingSymbol,
    symbol: get('SYMBOL_NAME') || tradingSymbol,
    lotSize: lotSize === 0 ? 1 : lotSize,
    tickSize,
    ...(expiry !== undefined && { expiry }),
    ...(strike !== undefined && { strike }),
    ...(optionType !== undefined && { optionType }),
    ...(series !== '' && { series }),
    ...(displayName !== '' && { displayName }),
  };
  return { instrument };
}

function parseExchange(s: string): Exchange | undefined {
  const v = s.trim().toUpperCase();
  return v === 'NSE' || v === 'BSE' ? v : undefined;
}

function parseSegment(s: string, source: MasterSource): Segment | undefined {
  const v = s.toUpperCase();
  if (v === '') return source === 'fno' ? 'FNO' : 'EQUITY';
  if (v === 'E' || v === 'EQ' || v === 'EQUITY' || v === 'CASH') return 'EQUITY';
  if (v === 'D' || v === 'FNO' || v === 'F&O' || v === 'NFO' || v === 'BFO' || v === 'DERIVATIVE' || v === 'DERIVATIVES') return 'FNO';
  if (v === 'C' || v === 'CUR' || v === 'CURRENCY' || v === 'CDS') return 'CURRENCY';
  if (v === 'I' || v === 'IDX' || v === 'INDEX') return 'INDEX';
  return undefined;
}

function parseKind(s: string, segment: Segment): InstrumentKind {
  const v = s.toUpperCase();
  if (v in InstrumentKind) return v as InstrumentKind;
  if (v === 'EQ' || v === 'ES' || v === 'ETF') return 'EQUITY';
  if (v === 'IDX') return 'INDEX';
  if (segment === 'EQUITY') return 'EQUITY';
  if (segment === 'INDEX') return 'INDEX';
  return 'OTHER';
}

const MONTHS: Record<string, string> = {
  JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06', JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12',
};

/** `YYYY-MM-DD[ time]`, `DD-MMM-YYYY`, `DD/MM/YYYY` -> `YYYY-MM-DD`; blanks and placeholders -> undefined. */
export function parseExpiry(s: string): string | undefined {
  const v = s.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(v);
  if (m) return valid(`${m[1]}-${m[2]}-${m[3]}`);
  m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(v);
  if (m) {
    const mm = MONTHS[m[2]!.toUpperCase()];
    return mm ? valid(`${m[3]}-${mm}-${m[1]!.padStart(2, '0')}`) : undefined;
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (m) return valid(`${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`);
  return undefined;
}

function valid(date: string): string | undefined {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date ? undefined : date;
}
