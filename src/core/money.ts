/**
 * Exact prices and money. Inside tarang every price and amount is an integer number of paise
 * (1 rupee = 100 paise): matching, accounting and risk never see a float. Rupee floats exist only
 * at the wire boundary (parsed here) and inside indicators (which convert with `toRupees`).
 *
 * NSE/BSE equity and F&O tick sizes (0.01, 0.05, 0.10, ...) are whole paise. Currency derivatives
 * (tick 0.0025) are not: `parsePaise` refuses them rather than round silently.
 */
import { PriceError } from './errors.js';

/** An integer number of paise. A plain number at run time; the alias documents intent. */
export type Paise = number;

export const PAISE_PER_RUPEE = 100;

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a rupee amount given as a number or decimal string ("1426.50", "5,82,909.05", 1426.5)
 * into exact paise. Indian or western digit grouping commas are accepted. Throws PriceError when
 * the value is not a finite decimal or has a sub-paisa remainder.
 */
export function parsePaise(value: number | string, what = 'price'): Paise {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new PriceError(`${what}: expected a finite number, got ${value}`, { what, value });
    const scaled = value * PAISE_PER_RUPEE;
    const rounded = Math.round(scaled);
    // Floats like 1426.55 * 100 = 142654.99999999997: accept tiny representation error only.
    if (Math.abs(scaled - rounded) > 1e-6 * Math.max(1, Math.abs(scaled))) {
      throw new PriceError(`${what}: ${value} is not a whole number of paise`, { what, value });
    }
    return rounded === 0 ? 0 : rounded;
  }
  const text = value.trim().replaceAll(',', '');
  const m = DECIMAL.exec(text);
  if (!m) throw new PriceError(`${what}: expected a decimal number, got ${JSON.stringify(value)}`, { what, value });
  const [, sign, whole = '0', frac = ''] = m;
  const fracTrim = frac.replace(/0+$/, '');
  if (fracTrim.length > 2) throw new PriceError(`${what}: ${value} is not a whole number of paise`, { what, value });
  const paise = Number(whole) * PAISE_PER_RUPEE + Number(fracTrim.padEnd(2, '0'));
  if (!Number.isSafeInteger(paise)) throw new PriceError(`${what}: ${value} is out of range`, { what, value });
  return sign === '-' && paise !== 0 ? -paise : paise;
}

/** Paise to rupees as a float: for display, indicators and the wire. */
export function toRupees(paise: Paise): number {
  return paise / PAISE_PER_RUPEE;
}

/** Paise to a fixed two-decimal rupee string ("1426.50"): exact, for the wire and reports. */
export function formatRupees(paise: Paise): string {
  const neg = paise < 0;
  const abs = Math.abs(Math.round(paise));
  const s = `${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return neg ? `-${s}` : s;
}

/**
 * Paise as rupees the Indian way, for people reading logs and messages: `₹5,00,000.00`,
 * `₹12,34,56,789.05`, `-₹1,250.00` (lakh and crore grouping: the last three digits, then pairs).
 * Exact integer arithmetic, not Intl, so the output does not depend on the ICU data Node was built
 * with; and no regular expression or string splitting, since risk denials format two amounts each
 * (a backtest can deny thousands of intents).
 */
export function formatInr(paise: Paise): string {
  const abs = Math.abs(Math.round(paise));
  // Beyond exact integers (and NaN) the digits are not an integer's: the general path keeps its text.
  if (!Number.isSafeInteger(abs)) return formatInrText(paise);
  const frac = abs % 100;
  let whole = (abs - frac) / 100;
  let grouped: string;
  if (whole < 1000) grouped = String(whole);
  else {
    grouped = pad3(whole % 1000);
    whole = Math.floor(whole / 1000);
    while (whole >= 100) {
      grouped = `${pad2(whole % 100)},${grouped}`;
      whole = Math.floor(whole / 100);
    }
    grouped = `${whole},${grouped}`;
  }
  return `${paise < 0 ? '-' : ''}₹${grouped}.${pad2(frac)}`;
}

/** 0..99 as two digits. */
function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** 0..999 as three digits. */
function pad3(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n);
}

/** formatInr over formatRupees' text (any number, including the unsafe and NaN). */
function formatInrText(paise: Paise): string {
  const plain = formatRupees(paise);
  const neg = plain.startsWith('-');
  const [whole = '0', frac = '00'] = (neg ? plain.slice(1) : plain).split('.');
  return `${neg ? '-' : ''}₹${groupIndian(whole)}.${frac}`;
}

/** A string of digits with Indian grouping commas: `500000` -> `5,00,000`. */
export function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${head},${digits.slice(-3)}`;
}

export const Rounding = { NEAREST: 'nearest', DOWN: 'down', UP: 'up' } as const;
export type Rounding = (typeof Rounding)[keyof typeof Rounding];

/**
 * Rounds a price in paise (possibly fractional, e.g. from an indicator) to a multiple of `tick`
 * paise. NEAREST rounds half away from zero; DOWN/UP are floor/ceil (use DOWN for buy limits and
 * UP for sell limits when the price must not be worse than asked).
 */
export function roundToTick(paise: number, tick: Paise, mode: Rounding = Rounding.NEAREST): Paise {
  assertTick(tick);
  const q = paise / tick;
  let n: number;
  if (mode === Rounding.DOWN) n = Math.floor(q + 1e-9);
  else if (mode === Rounding.UP) n = Math.ceil(q - 1e-9);
  else n = Math.sign(q) * Math.floor(Math.abs(q) + 0.5 + 1e-9);
  const r = n * tick;
  return r === 0 ? 0 : r;
}

/** Rounds a rupee float (from an indicator or a user) to the tick, returning paise. */
export function rupeesToTick(rupees: number, tick: Paise, mode: Rounding = Rounding.NEAREST): Paise {
  return roundToTick(rupees * PAISE_PER_RUPEE, tick, mode);
}

export function isOnTick(paise: Paise, tick: Paise): boolean {
  assertTick(tick);
  return Number.isSafeInteger(paise) && paise % tick === 0;
}

/** Value of `qty` units at `price` paise, in paise (exact while under 2^53). */
export function notional(qty: number, price: Paise): Paise {
  const v = qty * price;
  if (!Number.isSafeInteger(v)) throw new PriceError(`notional ${qty} x ${price} paise is out of exact range`, { qty, price });
  return v;
}

function assertTick(tick: Paise): void {
  if (!Number.isSafeInteger(tick) || tick <= 0) {
    throw new PriceError(`tick size must be a positive whole number of paise, got ${tick}`, { tick });
  }
}
