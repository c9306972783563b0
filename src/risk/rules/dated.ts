/**
 * Dated values of the market-rule files: a list of revisions, each in force from its `from` date
 * (inclusive, `YYYY-MM-DD`, IST trading day) until the next one. Revisions are listed oldest first
 * with distinct dates; a file that breaks this fails naming the revision (the error path is
 * `revisions.<n>.from`), so a typo never silently reorders history.
 */
import { z } from 'zod';

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'not a calendar date');

/** A zod list of `{ from, ...item }` revisions, oldest first, dates strictly increasing. */
export function datedList<T extends z.ZodRawShape>(item: T) {
  return z
    .array(z.object({ from: isoDate, ...item }).strict())
    .min(1)
    .superRefine((list, ctx) => {
      const dates = list.map((e) => (e as { from: string }).from);
      for (let k = 1; k < dates.length; k++) {
        if (!(dates[k]! > dates[k - 1]!)) {
          ctx.addIssue({ code: 'custom', path: [k, 'from'], message: `${dates[k]} is not after the previous revision's ${dates[k - 1]}: list revisions oldest first, one per date` });
        }
      }
    });
}

/** The entry of an oldest-first dated list in force on `date`; undefined before the first. */
export function inForce<T extends { readonly from: string }>(list: readonly T[], date: string): T | undefined {
  let hit: T | undefined;
  for (const e of list) {
    if (e.from > date) break;
    hit = e;
  }
  return hit;
}
