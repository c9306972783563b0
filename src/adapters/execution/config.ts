/**
 * Execution behaviour, validated with zod. Retry and reconciliation policy is data here.
 * Defaults:
 * - reconcileDelaysMs [250, 1000, 3000, 10000], resendLostWrites [place, placeSmart, modify,
 *   cancel], resendWithinMs 30000: the lost-answer policy (lost-answer-policy.ts, followed by
 *   lost-answers.ts): after a write with no reliable answer, the order book is searched for our tag
 *   after each delay in turn; never a blind retry. A write of `resendLostWrites` that the book
 *   proves never arrived is sent once more if that proof comes within `resendWithinMs` of the lost
 *   answer; otherwise (or when the resend is not found either) a place is declared not done
 *   (REJECTED, reason says so) and a change is refused.
 * - trailMinTicks 2: an emulated trailing stop is only moved when it would move by at least this
 *   many ticks (each move spends one of the order's 25 modifications).
 * - fundsRefreshMs 2000: after fills, funds are re-read from the venue at most this often
 *   (synchronous venues: after every fill).
 * - fillGapMs 2000: when an order's reported filled quantity runs ahead of the fills received for
 *   this long, its trades are fetched from the venue; a gap the venue cannot explain becomes a
 *   synthetic fill at the reported average price (marked `synthetic:` in its fill id).
 * - onPositionMismatch 'hold': when a position (instrument and product) differs from the broker's
 *   after a reconcile, that instrument is held to reducing-only (`hold`) or all trading halts
 *   (`halt`); a critical alert gives both views, the books are read again every
 *   mismatchRecheckMs (10000) and trading there resumes once they agree.
 */
import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { zodIssueLines } from '../../core/zod-issues.js';
import { DEFAULT_LOST_ANSWER_POLICY } from './lost-answer-policy.js';

const WRITE_OPS = ['place', 'placeSmart', 'modify', 'modifySmart', 'cancel', 'cancelSmart'] as const;

export const ExecutionConfigSchema = z
  .object({
    reconcileDelaysMs: z.array(z.number().int().nonnegative()).min(1).default([...DEFAULT_LOST_ANSWER_POLICY.delaysMs]),
    resendLostWrites: z.array(z.enum(WRITE_OPS)).default([...DEFAULT_LOST_ANSWER_POLICY.resendOnce]),
    resendWithinMs: z.number().int().nonnegative().default(DEFAULT_LOST_ANSWER_POLICY.resendWithinMs),
    trailMinTicks: z.number().int().positive().default(2),
    fundsRefreshMs: z.number().int().nonnegative().default(2000),
    fillGapMs: z.number().int().nonnegative().default(2000),
    onPositionMismatch: z.enum(['hold', 'halt']).default('hold'),
    mismatchRecheckMs: z.number().int().positive().default(10_000),
  })
  .strict();

export type ExecutionConfig = z.output<typeof ExecutionConfigSchema>;
export type ExecutionConfigInput = z.input<typeof ExecutionConfigSchema>;

export function parseExecutionConfig(input: ExecutionConfigInput | undefined, where = 'execution'): ExecutionConfig {
  const r = ExecutionConfigSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = zodIssueLines(r.error, { prefix: `${where}.`, root: '(root)' });
  throw new ConfigError(`invalid execution config: ${issues.join('; ')}`, { where, issues });
}
