/**
 * New orders per exchange segment (SEBI's retail-algo threshold, src/risk/rules/retail-algo.ts):
 * at most `perSecond` orders of one segment reach the broker in any second, and a burst waits
 * here, in order, instead of being refused there.
 *
 * Why not the sliding window of rate-limiter.ts: the broker counts an order when it arrives, we
 * when we send it, and a first order that travels slower than the eleventh (a cold connection, a
 * slow hop) makes the broker see eleven in its second. So a slot is held from the moment an order
 * is sent until a second after its answer came back: the broker's arrival time lies between the
 * two, so the next order on that slot arrives more than a second after it, whatever the latency.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { LimiterStats } from './rate-limiter.js';
import { RateLimited } from './errors.js';

/** Gives the slot back; call once the answer (or the failure) of the order is in. */
export type ReleaseSlot = () => void;

interface Waiter {
  resolve: (release: ReleaseSlot) => void;
  reject: (e: unknown) => void;
}

export class SegmentLimiter {
  /** Per slot: the time it is free again; Infinity while its order is in flight. */
  private readonly freeAt: Float64Array;
  private readonly queue: Waiter[] = [];
  private timer: TimerHandle | undefined;
  private granted = 0;
  private delayed = 0;

  constructor(
    readonly segment: string,
    readonly perSecond: number,
    private readonly clock: Clock,
    readonly windowMs = 1000,
  ) {
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`orders a second on ${segment} must be a positive integer, got ${perSecond}`);
    this.freeAt = new Float64Array(perSecond).fill(-Infinity);
  }

  /** Resolves with the slot's release when one more order of this segment may be sent. */
  acquire(): Promise<ReleaseSlot> {
    if (this.queue.length === 0) {
      const r = this.tryTake();
      if (r) return Promise.resolve(r);
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.delayed++;
      this.pump();
    });
  }

  stats(): LimiterStats {
    return { granted: this.granted, delayed: this.delayed, rateLimited: 0, queued: this.queue.length, usedToday: this.granted };
  }

  close(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new RateLimited(`order queue of ${this.segment} closed`, { segment: this.segment }));
  }

  private tryTake(): ReleaseSlot | undefined {
    const now = this.clock.now();
    for (let i = 0; i < this.freeAt.length; i++) {
      if (this.freeAt[i]! <= now) {
        this.freeAt[i] = Infinity;
        this.granted++;
        let done = false;
        return () => {
          if (done) return;
          done = true;
          this.freeAt[i] = this.clock.now() + this.windowMs;
          this.pump();
        };
      }
    }
    return undefined;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const r = this.tryTake();
      if (!r) break;
      this.queue.shift()!.resolve(r);
    }
    if (this.queue.length === 0) return;
    // Wake when the earliest answered slot frees; slots in flight wake us through their release.
    let due = Infinity;
    for (const t of this.freeAt) if (t < due) due = t;
    if (due === Infinity) return;
    this.timer?.cancel();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.max(0, due - this.clock.now()));
  }
}
