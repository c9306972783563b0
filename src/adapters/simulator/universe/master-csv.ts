/**
 * The instrument master CSVs of spec 2.3: `equity` and `fno` with the 16 columns in order, `index`
 * with three (EXCH, SEGMENT holding the index name, SECURITY_ID). Fields that do not apply are
 * empty; prices are decimal rupees.
 */
import { MASTER_COLUMNS } from '../../../core/instrument-master.js';
import type { Instrument } from '../../../core/instruments.js';
import { formatRupees } from '../../../core/money.js';
import type { Contract, MasterSource } from './types.js';

/** The 16 columns, in order: the core parser's list, so writer and reader cannot drift apart. */
export { MASTER_COLUMNS };

export const INDEX_MASTER_COLUMNS = ['EXCH', 'SEGMENT', 'SECURITY_ID'] as const;

/** Segment codes in the master's SEGMENT column. */
export const MASTER_SEGMENT = { EQUITY: 'E', FNO: 'FNO' } as const;

export function renderMasterCsv(
  source: MasterSource,
  instruments: readonly Instrument[],
  contractOf: (scripCode: string) => Contract | undefined,
  currentExpiries: (underlying: string) => readonly string[],
): string {
  const lines: string[] = [];
  if (source === 'index') {
    lines.push(INDEX_MASTER_COLUMNS.join(','));
    for (const i of instruments) if (i.kind === 'INDEX') lines.push(row([i.exchange, i.symbol, i.securityId]));
    return lines.join('\n') + '\n';
  }
  lines.push(MASTER_COLUMNS.join(','));
  if (source === 'equity') {
    for (const i of instruments) {
      if (i.kind !== 'EQUITY') continue;
      lines.push(
        row([i.exchange, MASTER_SEGMENT.EQUITY, i.securityId, 'EQUITY', '0', i.tradingSymbol, '1', i.displayName ?? i.symbol, '', '', '', formatRupees(i.tickSize), '', 'ES', i.series ?? 'EQ', i.symbol]),
      );
    }
    return lines.join('\n') + '\n';
  }
  const codeCache = new Map<string, readonly string[]>();
  for (const i of instruments) {
    const c = i.segment === 'FNO' ? contractOf(i.id) : undefined;
    if (!c) continue;
    let expiries = codeCache.get(c.underlying);
    if (!expiries) {
      expiries = currentExpiries(c.underlying);
      codeCache.set(c.underlying, expiries);
    }
    // 1 = nearest listed expiry of the underlying, 2 = the next, ...; 0 is kept for non-derivatives.
    const expiryCode = String(expiries.indexOf(c.expiry) + 1);
    lines.push(
      row([
        c.exchange,
        MASTER_SEGMENT.FNO,
        i.securityId,
        c.instrumentType,
        expiryCode,
        c.tradingSymbol,
        String(c.lotSize),
        i.displayName ?? c.tradingSymbol,
        c.expiry,
        c.strike === null ? '' : formatRupees(c.strike),
        c.optionType ?? '',
        formatRupees(c.tickSize),
        c.expiryKind,
        c.instrumentType,
        '',
        c.underlying,
      ]),
    );
  }
  return lines.join('\n') + '\n';
}

function row(fields: readonly string[]): string {
  return fields.map(csvField).join(',');
}

/** RFC 4180 quoting, only where needed. */
function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
