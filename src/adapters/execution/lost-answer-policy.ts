/**
 * What happens after a write whose answer is lost (timeout, reset, 5xx, garbled ack), as data. The
 * one owner that follows it is lost-answers.ts; the broker client only reports the loss.
 *
 * - `delaysMs`: the order book is read once after each delay (the venue may show a new order a
 *   moment late); the looks of one round end after their sum.
 * - `resendOnce`: the writes sent once more when the last look of the round read the book and it
 *   proves the first never arrived (no order with the tag; the order without the change). Order
 *   writes carry no idempotency key, so this is the only resend there is, and never a blind one.
 * - `resendWithinMs`: the resend's deadline, from the lost answer; later, the write is declared
 *   not done instead (a placement sent minutes after the strategy asked is another order).
 */
import type { LostWriteOp } from '../../core/events.js';

export interface LostAnswerPolicy {
  /** Pause before each order-book look, ms; as many looks as delays. */
  readonly delaysMs: readonly number[];
  /** Writes sent once more when the book proves the first never arrived. */
  readonly resendOnce: readonly LostWriteOp[];
  /** No resend once this long has passed since the lost answer, ms. */
  readonly resendWithinMs: number;
}

/**
 * Looks at 0.25, 1.25, 4.25 and 14.25 s after the lost answer; a resend at most 30 s after it.
 * Smart-order modifies and cancels are not resent: one part's change can leave the book showing
 * another part's, and a second cancel of a part already gone is refused anyway.
 */
export const DEFAULT_LOST_ANSWER_POLICY: LostAnswerPolicy = {
  delaysMs: [250, 1000, 3000, 10_000],
  resendOnce: ['place', 'placeSmart', 'modify', 'cancel'],
  resendWithinMs: 30_000,
};
