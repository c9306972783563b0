/**
 * Which CSV column plays which part. Header names are matched case-insensitively with spaces,
 * `_` and `-` ignored, against the aliases below (first alias present wins, so `Datetime` beats
 * `Date` when a file has both). `--map role=Header` overrides one role, e.g. `--map volume=qty`
 * for the bhavcopy, whose `volume` column is turnover in rupees and `qty` the shares traded.
 */
import { CsvError } from '../../src/core/errors.js';

export const ColumnRole = {
  DATE: 'date',
  TIME: 'time',
  OPEN: 'open',
  HIGH: 'high',
  LOW: 'low',
  CLOSE: 'close',
  VOLUME: 'volume',
  OI: 'oi',
  SYMBOL: 'symbol',
  EXPIRY: 'expiry',
  STRIKE: 'strike',
  OPTION_TYPE: 'optionType',
  LOT: 'lot',
} as const;
export type ColumnRole = (typeof ColumnRole)[keyof typeof ColumnRole];

export const COLUMN_ROLES: readonly ColumnRole[] = Object.values(ColumnRole);

const ALIASES: Readonly<Record<ColumnRole, readonly string[]>> = {
  date: ['datetime', 'timestamp', 'date', 'ts'],
  time: ['time'],
  open: ['open', 'o'],
  high: ['high', 'h'],
  low: ['low', 'l'],
  close: ['close', 'c'],
  volume: ['volume', 'vol', 'v', 'totaltradedquantity', 'tottrdqty'],
  oi: ['oi', 'openinterest', 'openint'],
  symbol: ['symbol', 'instrument', 'ticker', 'tradingsymbol', 'scrip', 'scripcode'],
  expiry: ['expiry', 'expirydate', 'expirydt'],
  strike: ['strikeprice', 'strike', 'strikepr'],
  optionType: ['optiontype', 'opttype', 'optiontyp'],
  lot: ['marketlot', 'lotsize', 'lot'],
};

const REQUIRED: readonly ColumnRole[] = ['date', 'open', 'high', 'low', 'close'];

export function normaliseHeader(h: string): string {
  return h
    .trim()
    .replace(/^"|"$/g, '')
    .toLowerCase()
    .replace(/[\s_\-.]/g, '');
}

export function isColumnRole(s: string): s is ColumnRole {
  return (COLUMN_ROLES as readonly string[]).includes(s);
}

/** True when a line looks like a header: it names at least one known column and holds no number. */
export function looksLikeHeader(fields: readonly string[]): boolean {
  const known = new Set(Object.values(ALIASES).flat());
  const values = fields.map((f) => f.trim().replace(/^"|"$/g, ''));
  return values.some((v) => known.has(normaliseHeader(v))) && !values.some((v) => /^[+-]?[\d.,:\-/ T+Z]+$/.test(v) && /\d/.test(v));
}

export interface ColumnLayout {
  /** Role of each field index (undefined = ignored). */
  readonly roles: ReadonlyArray<ColumnRole | undefined>;
  /** Field index of each role present. */
  readonly index: Readonly<Partial<Record<ColumnRole, number>>>;
  readonly headers: readonly string[];
}

/**
 * Maps header names to roles. `map` (role -> header) wins over the aliases. Throws CsvError
 * naming the file, the missing roles and the headers found.
 */
export function resolveColumns(
  headers: readonly string[],
  file: string,
  map: Readonly<Partial<Record<ColumnRole, string>>> = {},
): ColumnLayout {
  const norm = headers.map(normaliseHeader);
  const index: Partial<Record<ColumnRole, number>> = {};
  const taken = new Set<number>();
  for (const [role, header] of Object.entries(map) as Array<[ColumnRole, string]>) {
    const i = norm.indexOf(normaliseHeader(header));
    if (i < 0) {
      throw new CsvError(`${file}: --map ${role}=${header}: no column named "${header}" (columns: ${headers.join(', ')})`, {
        file,
        role,
        header,
      });
    }
    index[role] = i;
    taken.add(i);
  }
  for (const role of COLUMN_ROLES) {
    if (index[role] !== undefined) continue;
    for (const alias of ALIASES[role]) {
      const i = norm.indexOf(alias);
      if (i >= 0 && !taken.has(i)) {
        index[role] = i;
        taken.add(i);
        break;
      }
    }
  }
  const missing = REQUIRED.filter((r) => index[r] === undefined);
  if (missing.length > 0) {
    throw new CsvError(
      `${file}: no ${missing.map((m) => `"${m}"`).join(', ')} column (columns: ${headers.join(', ')}); ` +
        'name them with --columns for a file without a header, or --map role=Header',
      { file, missing, headers },
    );
  }
  const roles: Array<ColumnRole | undefined> = headers.map(() => undefined);
  for (const [role, i] of Object.entries(index) as Array<[ColumnRole, number]>) roles[i] = role;
  return { roles, index, headers };
}
