/**
 * What happens after a write whose answer is lost (timeout, reset, 5xx, garbled ack), as data.
 * Order writes carry no idempotency key, so a lost write is never sent again blindly: it is settled
 * by looking for its tag (`remarks`) in the order book, once after each of `delaysMs` (the venue
 * may show a new order a moment late); what a look finds is adopted, and a placement still absent
 * after the last look is declared not done.
 *
 * Two layers look, each with a policy of this one shape: the broker (client.ts for placements,
 * plain modifies and cancels; venue.ts for smart-order modifies and cancels, with the client's
 * policy) settles a lost ack within the call, and what it cannot settle comes out as `unknown`, which
 * the execution reconciler (reconciler.ts, policy from the execution config's `reconcileDelaysMs`)
 * keeps looking for over a longer window.
 */
export interface LostAnswerPolicy {
  /** Pause before each order-book look, ms; as many looks as delays. */
  readonly delaysMs: readonly number[];
}

/** The execution reconciler's looks: 0.25, 1.25, 4.25 and 14.25 s after the lost answer. */
export const DEFAULT_LOST_ANSWER_POLICY: LostAnswerPolicy = { delaysMs: [250, 1000, 3000, 10_000] };

/** `checks` looks, the first at once and each later one `intervalMs` x its number after the one before. */
export function checksPolicy(checks: number, intervalMs: number): LostAnswerPolicy {
  return { delaysMs: Array.from({ length: checks }, (_, i) => intervalMs * i) };
}

/**
 * Looks after each delay of the policy until `look` decides (returns a value); undefined when no
 * look decided. `sleep` is the caller's clock. A look that throws ends the search (the caller's
 * `look` catches what it wants to survive).
 */
export async function lookAfterLostAnswer<T>(policy: LostAnswerPolicy, sleep: (ms: number) => Promise<void>, look: (check: number) => Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < policy.delaysMs.length; i++) {
    const d = policy.delaysMs[i]!;
    if (d > 0) await sleep(d);
    const r = await look(i + 1);
    if (r !== undefined) return r;
  }
  return undefined;
}
