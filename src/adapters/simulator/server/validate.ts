/**
 * Wire input validation with zod: the first issue becomes an InputException whose message names
 * the field (`qty: expected a positive integer`), or the contracts/historical debug form.
 */
import type { z } from 'zod';
import { debugError, inputError, type SimApiError } from './api-error.js';
import { issuePath } from '../../../core/zod-issues.js';

/** The value at `path` inside `input`, or undefined. */
function at(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

export function describeIssue(error: z.ZodError, where: string, input?: unknown): string {
  const issue = error.issues[0];
  if (!issue) return `${where}: invalid`;
  const path = issuePath(issue);
  const field = path === '' ? where : path;
  if (issue.code === 'invalid_type' && (/received undefined/i.test(issue.message) || (input !== undefined && path !== '' && at(input, issue.path) === undefined))) {
    return `${field}: is required`;
  }
  if (issue.code === 'unrecognized_keys') return `${where}: unknown field(s) ${issue.keys.join(', ')}`;
  return `${field}: ${issue.message}`;
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string, form: 'envelope' | 'debug' = 'envelope'): z.infer<S> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const msg = describeIssue(r.error, where, value ?? {});
  const err: SimApiError = form === 'debug' ? debugError(msg) : inputError(msg);
  throw err;
}
