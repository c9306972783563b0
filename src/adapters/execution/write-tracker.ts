/**
 * What the execution is still waiting for: the number of venue calls whose answer is outstanding
 * (writes, lookups, trade fetches; `idle` resolves when it is zero, for a clean stop), and per tag
 * the writes to an asynchronous venue awaiting their answer and the lost-answer lookups under way
 * (journal entries of such orders are never pruned). In-process venues never hold a tag.
 */
export class WriteTracker {
  private inflight = 0;
  private readonly unsettled = new Map<string, number>();
  private idleWaiters: Array<() => void> = [];

  begin(): void {
    this.inflight++;
  }

  /** One outstanding call fewer (without waking idle waiters: see settle). */
  end(): void {
    this.inflight--;
  }

  /** Wakes the idle waiters when nothing is outstanding. */
  checkIdle(): void {
    if (this.inflight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when no call is waiting for its answer. */
  idle(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  hold(tag: string): void {
    this.unsettled.set(tag, (this.unsettled.get(tag) ?? 0) + 1);
  }

  release(tag: string): void {
    const n = (this.unsettled.get(tag) ?? 1) - 1;
    if (n > 0) this.unsettled.set(tag, n);
    else this.unsettled.delete(tag);
  }

  isUnsettled(tag: string): boolean {
    return this.unsettled.has(tag);
  }
}
