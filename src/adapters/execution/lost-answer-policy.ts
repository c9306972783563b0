/**
 * What happens after a write whose answer is lost (timeout, reset, 5xx, garbled ack), as data.
 * Order writes carry no idempotency key, so a lost write is never sent again blindly: it is settled
 * by looking for its tag (`remarks`) in the order book, after each of `delaysMs` in turn (the venue
 * may show a new order a moment late); what a look finds is adopted, and a placement still absent
 * after the last look is declared not done. The execution reconciler (reconciler.ts) owns this
 * policy; the execution config's `reconcileDelaysMs` is where it is set.
 */
export interface LostAnswerPolicy {
  /** Pause before each order-book look, ms; as many looks as delays. */
  readonly delaysMs: readonly number[];
}

export const DEFAULT_LOST_ANSWER_POLICY: LostAnswerPolicy = { delaysMs: [250, 1000, 3000, 10_000] };
