/**
 * Percent rates read exactly from their decimal text ("0.00297" % = 297 / 10^7) and applied to
 * paise with integer (BigInt) arithmetic, so a charge never inherits a float's representation
 * error. Rounding: half up to the whole paisa (all charges are non-negative).
 */
import { ConfigError } from '../../src/core/errors.js';
import type { Paise } from '../../src/core/money.js';

/** A non-negative rate as numerator / denominator of a fraction (not of a percent). */
export interface ExactRate {
  readonly num: bigint;
  readonly den: bigint;
  /** The same as numbers (exact: rates have few digits), for the fast path of applyRate. */
  readonly numN: number;
  readonly denN: number;
  /** The text it came from, for reports. */
  readonly text: string;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "0.00297" (a percent) -> 297 / 10^7. Throws ConfigError naming `where` when malformed. */
export function parsePercent(text: string, where: string): ExactRate {
  const m = DECIMAL.exec(text.trim());
  if (!m) throw new ConfigError(`${where}: expected a percentage as a decimal string like "0.00297", got ${JSON.stringify(text)}`, { where, text });
  const frac = m[2] ?? '';
  const num = BigInt(m[1]! + frac);
  const den = 100n * 10n ** BigInt(frac.length);
  if (den > BigInt(Number.MAX_SAFE_INTEGER)) throw new ConfigError(`${where}: ${text} has too many decimals`, { where, text });
  return { num, den, numN: Number(num), denN: Number(den), text };
}

/** "20" or "20.50" rupees -> paise, exactly. */
export function parseRupees(text: string, where: string): Paise {
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] ?? '').length > 2) {
    throw new ConfigError(`${where}: expected rupees as a decimal string with at most 2 decimals, got ${JSON.stringify(text)}`, { where, text });
  }
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** round_half_up(amount x rate), amount in paise (a non-negative safe integer). */
export function applyRate(amount: Paise, rate: ExactRate): Paise {
  if (rate.numN === 0 || amount === 0) return 0;
  const pn = amount * rate.numN;
  if (Number.isSafeInteger(pn)) {
    // Exact in doubles: integer quotient and remainder of safe integers.
    const q = Math.floor(pn / rate.denN);
    const r = pn - q * rate.denN;
    return 2 * r >= rate.denN ? q + 1 : q;
  }
  const p = BigInt(amount) * rate.num;
  const q = p / rate.den;
  const r = p % rate.den;
  return Number(2n * r >= rate.den ? q + 1n : q);
}
