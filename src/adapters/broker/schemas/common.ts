/**
 * Tolerant wire primitives shared by every resource schema, the envelopes, and the one place that
 * turns a decode failure into a DataException naming the endpoint and the field. The live service
 * drifts from its docs (wire-gaps): numbers arrive as numbers or strings, with Indian digit
 * grouping ("5,82,909"), and `""` stands for "does not apply". Each primitive accepts all of those
 * and nothing else: anything unreadable is an error, never a silent zero.
 */
import { z } from 'zod';
import { parsePaise, type Paise } from '../../../core/money.js';
import { DataException } from '../errors.js';
import { issuePath } from '../../../core/zod-issues.js';

const NUMERIC = /^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

function toNumber(v: number | string, ctx: z.RefinementCtx): number {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
  } else {
    const s = v.trim().replaceAll(',', '');
    if (NUMERIC.test(s)) return Number(s);
  }
  ctx.addIssue({ code: 'custom', message: `expected a number, got ${JSON.stringify(v)}` });
  return z.NEVER;
}

const isBlank = (v: unknown): boolean => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A number sent as a number or a (possibly digit-grouped) string. */
export const num = z.union([z.number(), z.string()]).transform(toNumber);

/** A whole number (quantities, volumes). */
export const int = num.refine((n) => Number.isInteger(n), { message: 'expected a whole number' });

/** A rupee price or amount, converted to exact integer paise. */
export const paise = z.union([z.number(), z.string()]).transform((v, ctx): Paise => {
  try {
    return parsePaise(typeof v === 'string' ? v.trim() : v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
    return z.NEVER;
  }
});

/** Optional variants: `""`, null and absent all mean "not applicable" -> undefined. */
export const optNum = z.unknown().optional().transform((v, ctx): number | undefined => {
  if (isBlank(v)) return undefined;
  const r = num.safeParse(v);
  return r.success ? r.data : fail(ctx, v, 'a number');
});
export const optInt = z.unknown().optional().transform((v, ctx) => {
  if (isBlank(v)) return undefined;
  const r = int.safeParse(v);
  return r.success ? r.data : fail(ctx, v, 'a whole number');
});
export const optPaise = z.unknown().optional().transform((v, ctx): Paise | undefined => {
  if (isBlank(v)) return undefined;
  const r = paise.safeParse(v);
  if (r.success) return r.data;
  ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? `expected a price, got ${JSON.stringify(v)}` });
  return z.NEVER;
});
/**
 * An average price in rupees, as fractional paise: the average of fills at different prices need
 * not be a whole paisa, so it is not forced onto one (VenueOrderState.avgPrice).
 */
export const optAvgPaise = z.unknown().optional().transform((v, ctx): number | undefined => {
  if (isBlank(v)) return undefined;
  const r = num.safeParse(v);
  if (!r.success) return fail(ctx, v, 'an average price');
  return Math.round(r.data * 100 * 10_000) / 10_000;
});

export const optStr = z.unknown().optional().transform((v, ctx): string | undefined => {
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return fail(ctx, v, 'a string');
});

/** A string id sent as a string or a bare number. */
export const idStr = z.union([z.string().min(1), z.number()]).transform((v) => String(v));

/** Booleans as true/false, "true"/"false", 1/0; absent or "" -> false. */
export const bool = z.unknown().optional().transform((v, ctx): boolean => {
  if (isBlank(v)) return false;
  if (v === true || v === 'true' || v === 1 || v === '1' || v === 'Y') return true;
  if (v === false || v === 'false' || v === 0 || v === '0' || v === 'N') return false;
  return fail(ctx, v, 'a boolean');
});

/** `YYYY-MM-DD` (dates of the contracts endpoints). */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

function fail(ctx: z.RefinementCtx, v: unknown, what: string): never {
  ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${JSON.stringify(v)}` });
  return z.NEVER as never;
}

/**
 * `data` of the success envelope `{status: "success", data}`, decoded by `schema`. A body
 * without `data` (or not JSON at all) is a DataException too.
 */
export function decodeData<T extends z.ZodType>(schema: T, body: unknown, endpoint: string, status?: number): z.output<T> {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('data' in body)) {
    throw new DataException(`${endpoint}: the broker's answer has no \`data\` (expected {"status":"success","data":...})`, {
      endpoint,
      status,
      field: 'data',
      body: JSON.stringify(body ?? null).slice(0, 200),
    });
  }
  return decode(schema, (body as { data: unknown }).data, endpoint, status, 'data');
}

/**
 * Decodes `value` with `schema`, or throws a DataException naming the endpoint and the first bad
 * field (`data.NSE_2885.live_price: expected a number, got "abc"`).
 */
export function decode<T extends z.ZodType>(schema: T, value: unknown, endpoint: string, status?: number, root?: string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const at = (p: string) => (root && p ? `${root}.${p}` : root || p) || '(body)';
  const issues = r.error.issues.slice(0, 5).map((i) => `${at(issuePath(i))}: ${i.message}`);
  throw new DataException(`${endpoint}: the broker's answer did not decode: ${issues.join('; ')}`, {
    endpoint,
    status,
    field: at(r.error.issues[0] ? issuePath(r.error.issues[0]) : ''),
    issues,
  });
}
