/**
 * One way to turn a zod validation failure into the text of an error: `path: message`, several
 * joined with `; `. Every module that validates options or input with zod words its errors
 * through here, so a bad key reads the same wherever it is caught; the options cover the few
 * forms users and tests already rely on (a `risk.` prefix, `(root)` for the whole value, only
 * the first issue for one-line constructor errors).
 */
import type { z } from 'zod';

export type ZodIssue = z.core.$ZodIssue;

export interface IssueFormat {
  /** Written in place of the path when the whole value failed (the issue has no path). Default ''. */
  readonly root?: string;
  /** Written before the path (or `root`), e.g. `risk.` or `parameter `. */
  readonly prefix?: string;
  /** At most this many issues (the first `limit`); `1` for one-line errors. */
  readonly limit?: number;
}

/** The issue's key path joined with dots (`legs.0.qty`), or `root` when it has none. */
export function issuePath(issue: ZodIssue, root = ''): string {
  return issue.path.map(String).join('.') || root;
}

/** Each issue as `prefix + path: message`. */
export function zodIssueLines(error: z.ZodError, format: IssueFormat = {}): string[] {
  const { root = '', prefix = '', limit } = format;
  const issues = limit === undefined ? error.issues : error.issues.slice(0, limit);
  return issues.map((i) => `${prefix}${issuePath(i, root)}: ${i.message}`);
}

/** The issues as one line, `a: bad; b.c: worse`. */
export function formatZodIssues(error: z.ZodError, format: IssueFormat = {}): string {
  return zodIssueLines(error, format).join('; ');
}
