/**
 * `remarks` rules (spec 2.7, 8): at most 100 characters, longer text truncated rather than
 * rejected; a small reserved set refused (wire-gaps: `TV-TERMINAL`; and the broker's own
 * square-off tag, so no client order can pass for one).
 */
import { VenueInputError } from './errors.js';
import { SQUARE_OFF_REMARKS } from '../../../risk/rules/square-off.js';

export const MAX_REMARKS_LENGTH = 100;
export const RESERVED_REMARKS: ReadonlySet<string> = new Set(['TV-TERMINAL', SQUARE_OFF_REMARKS]);
const RESERVED_LENGTHS: ReadonlySet<number> = new Set([...RESERVED_REMARKS].map((r) => r.length));

/** The remarks as stored. Throws VenueInputError for a reserved value. */
export function normaliseRemarks(remarks: string | undefined): string {
  if (remarks === undefined) return '';
  const trimmed = remarks.trim();
  // Upper-casing only text as long as a reserved value: this runs for every order a backtest places.
  if (RESERVED_LENGTHS.has(trimmed.length) && RESERVED_REMARKS.has(trimmed.toUpperCase())) {
    throw new VenueInputError(`remarks: the value ${JSON.stringify(remarks)} is reserved and cannot be used`, { remarks });
  }
  // No more UTF-16 units than the limit means no more code points either.
  if (remarks.length <= MAX_REMARKS_LENGTH) return remarks;
  // Truncate by code points so a multi-byte character is never split in half.
  const chars = Array.from(remarks);
  return chars.length > MAX_REMARKS_LENGTH ? chars.slice(0, MAX_REMARKS_LENGTH).join('') : remarks;
}
