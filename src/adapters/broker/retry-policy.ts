/**
 * Retry policy as data. Reads are retried on the statuses and network failures listed here, with
 * exponential backoff and full jitter, honouring `Retry-After` when the broker sends it. Writes are
 * never retried by this policy: the client reconciles them through the order book instead.
 */
import { z } from 'zod';

export const RetryPolicySchema = z
  .object({
    /** Attempts in all, the first included. */
    maxAttempts: z.number().int().min(1).max(20).default(4),
    /** HTTP statuses that make a read worth repeating. 429 is handled by the limiter path too. */
    retryStatuses: z.array(z.number().int().min(400).max(599)).default([429, 500, 502, 503, 504]),
    /** Network failures (timeouts, resets, refused) are retried on reads. */
    retryNetwork: z.boolean().default(true),
    baseDelayMs: z.number().int().min(0).default(200),
    maxDelayMs: z.number().int().min(0).default(10_000),
    /** 0 = no jitter, 1 = full jitter (delay uniform in [0, backoff]). */
    jitter: z.number().min(0).max(1).default(1),
    /** Never wait longer than this for a Retry-After; beyond it the error surfaces (RateLimited). */
    maxRetryAfterMs: z.number().int().min(0).default(60_000),
    /** How many 429s in a row one call absorbs before giving up with RateLimited. */
    max429: z.number().int().min(0).default(8),
  })
  .strict();
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1). `random` is injectable so tests and
 * the virtual clock stay deterministic.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exp * (1 - policy.jitter) + exp * policy.jitter * random();
  return Math.round(jittered);
}

/**
 * `Retry-After` as milliseconds: delta-seconds or an HTTP date (against `now`). Undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, Math.round(secs * 1000));
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
