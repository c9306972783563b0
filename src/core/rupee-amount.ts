/**
 * Rupee amounts as people write them in config files and on the command line, turned into exact
 * integer paise. Users think in rupees (a limit of "5 lakh" is not 5,00,00,000 paise), so every
 * money value at tarang's edges is rupees and everything inside is paise.
 *
 * Accepted: a number (`500000`, `1426.5`, `5e5`) or a string with an optional `₹`/`Rs`/`INR`
 * prefix, Indian or western digit grouping with commas or underscores (`"5,00,000"`, `"500,000"`,
 * `5_00_000`, which YAML reads as text), an optional `lakh` or `crore` suffix (`"5 lakh"`,
 * `"1.25 crore"`) and the `/-` of a written amount (`"Rs. 5,00,000/-"`). At most two decimals of a
 * rupee survive (whole paise): anything finer is refused, never rounded.
 */
import { PriceError } from './errors.js';
import { parsePaise, type Paise } from './money.js';

/** Why a value is not an exact rupee amount; phrased to be followed by ", got <value>". */
export type RupeeProblem = string;

export const RUPEE_EXAMPLES = '500000, 1426.50, "5,00,000" or "5 lakh"';

// \u20B9 is ₹, escaped in regular expressions so the CLI bundle stays ASCII (bin/cli-bundle.js).
const TEXT = /^([+-])?\s*(?:\u20B9|rs\.?|inr)?\s*(\d[\d,_]*)(?:\.(\d+))?\s*(lakhs?|lacs?|crores?|cr)?\s*(?:\/-)?$/i;
const INDIAN_GROUPS = /^\d{1,2}(?:,\d{2})*,\d{3}$/;
const WESTERN_GROUPS = /^\d{1,3}(?:,\d{3})+$/;
const UNIT_DIGITS: Readonly<Record<string, number>> = { lakh: 5, lakhs: 5, lac: 5, lacs: 5, crore: 7, crores: 7, cr: 7 };
/** Past this many rupees a YAML/JSON number (a double) no longer holds every paisa exactly. */
const MAX_EXACT_NUMBER = 1e13;

const FRACTIONAL = 'expected rupees with at most 2 decimals (whole paise)';
const OUT_OF_RANGE = 'amount is too large to hold exactly';

/** Rupees as written to paise, or the reason it is not a valid amount. */
export function rupeesToPaise(value: unknown): { paise: Paise } | { problem: RupeeProblem } {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value === 'string') return fromText(value);
  return { problem: `expected an amount in rupees such as ${RUPEE_EXAMPLES}` };
}

/** Rupees as written to paise; throws PriceError naming `what` and the value. */
export function parseRupeeAmount(value: unknown, what = 'amount'): Paise {
  const r = rupeesToPaise(value);
  if ('paise' in r) return r.paise;
  throw new PriceError(`${what}: ${r.problem}, got ${JSON.stringify(value)}`, { what, value });
}

function fromNumber(n: number): { paise: Paise } | { problem: RupeeProblem } {
  if (!Number.isFinite(n)) return { problem: `expected an amount in rupees such as ${RUPEE_EXAMPLES}` };
  if (Math.abs(n) >= MAX_EXACT_NUMBER) return { problem: OUT_OF_RANGE };
  // The shortest text that reads back as this double is the decimal the user wrote (up to 15
  // significant digits, which the bound above guarantees for whole paise): parse that, exactly.
  // Below 1e13 only tiny magnitudes print with an exponent, and those are fractions of a paisa.
  const text = String(n);
  if (/e/i.test(text)) return { problem: FRACTIONAL };
  return fromText(text);
}

function fromText(raw: string): { paise: Paise } | { problem: RupeeProblem } {
  const m = TEXT.exec(raw.trim());
  if (!m) return { problem: `expected an amount in rupees such as ${RUPEE_EXAMPLES}` };
  const [, sign = '', written = '', frac = '', unit] = m;
  if (written.includes(',') && written.includes('_')) return { problem: 'digit groups mix commas and underscores' };
  const grouped = written.replaceAll('_', ',');
  if (grouped.includes(',') && !INDIAN_GROUPS.test(grouped) && !WESTERN_GROUPS.test(grouped)) {
    return { problem: 'digit groups are neither Indian (5,00,000) nor western (500,000)' };
  }
  let whole = grouped.replaceAll(',', '');
  let fraction = frac;
  const shift = unit ? (UNIT_DIGITS[unit.toLowerCase()] ?? 0) : 0;
  if (shift > 0) {
    // Move the decimal point in the text: "1.25 crore" is 12500000 rupees, with no float step.
    whole += fraction.slice(0, shift).padEnd(shift, '0');
    fraction = fraction.slice(shift);
  }
  if (fraction.replace(/0+$/, '').length > 2) return { problem: FRACTIONAL };
  try {
    return { paise: parsePaise(`${sign}${whole}${fraction ? `.${fraction}` : ''}`) };
  } catch (e) {
    if (e instanceof PriceError) return { problem: OUT_OF_RANGE };
    throw e;
  }
}
