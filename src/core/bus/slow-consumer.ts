/**
 * A buffer between the bus and a consumer that is slower than the tick rate or asynchronous (the
 * JSONL recorder, a terminal UI, a webhook, Redis persistence).
 *
 * Backpressure policy:
 * - `push` is O(1) and never waits: the bus hands the event over and moves on.
 * - Ticks conflate per instrument: while a tick for an instrument waits undelivered, a newer tick
 *   for it replaces it (the old slot becomes a hole and the new tick goes to the end, so the
 *   consumer still sees events in bus order). A slow reader gets current prices, not a backlog.
 *   `conflateTicks: false` (the recorder, which must keep every tick) turns this off.
 * - Every other event (orders, fills, positions, denials, intents, lifecycle, alerts, candles) is
 *   kept, however long the queue grows: those are never dropped. Past `highWater` queued events a
 *   warning is logged once per crossing, so an operator can see a consumer falling behind.
 * - Delivery is one event at a time; when the handler returns a promise the next event waits for it.
 *   A handler error is logged and the next event is delivered.
 */
import type { Event } from '../events.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../silent-log.js';

export interface SlowConsumerOptions {
  /** Conflate ticks per instrument (default true). */
  conflateTicks?: boolean;
  /** Queue length that triggers a "falling behind" warning (default 100,000). */
  highWater?: number;
  log?: Logger;
  /** Name for logs. */
  name?: string;
}

const HOLE = Symbol('conflated');

export class SlowConsumer {
  private queue: (Event | typeof HOLE)[] = [];
  private head = 0;
  /** instrument -> queue index of its undelivered tick. */
  private readonly pendingTick = new Map<string, number>();
  private draining = false;
  private closed = false;
  private warned = false;
  private conflatedCount = 0;
  private deliveredCount = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly closeHooks: Array<() => void> = [];
  private readonly conflate: boolean;
  private readonly highWater: number;
  private readonly log: Logger;
  private readonly name: string;

  constructor(
    private readonly handler: (event: Event) => void | Promise<void>,
    options: SlowConsumerOptions = {},
  ) {
    this.conflate = options.conflateTicks ?? true;
    this.highWater = options.highWater ?? 100_000;
    if (!(this.highWater > 0)) throw new RangeError(`SlowConsumer: highWater must be > 0, got ${this.highWater}`);
    this.log = options.log ?? silentLogger();
    this.name = options.name ?? 'slow-consumer';
  }

  /** Events waiting (holes excluded are counted too; a rough figure for metrics). */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /** Ticks replaced by a newer tick before delivery. */
  get conflated(): number {
    return this.conflatedCount;
  }

  get delivered(): number {
    return this.deliveredCount;
  }

  push(event: Event): void {
    if (this.closed) return;
    if (this.conflate && event.type === 'tick') {
      const at = this.pendingTick.get(event.instrument);
      if (at !== undefined) {
        this.queue[at] = HOLE;
        this.conflatedCount++;
      }
      this.pendingTick.set(event.instrument, this.queue.length);
    }
    this.queue.push(event);
    if (!this.warned && this.queued > this.highWater) {
      this.warned = true;
      this.log.warn({ consumer: this.name, queued: this.queued }, 'slow consumer is falling behind (nothing but ticks is dropped)');
    }
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Resolves when everything pushed so far has been delivered. */
  idle(): Promise<void> {
    if (!this.draining && this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops receiving (pending events are still delivered; await `idle()` for them). */
  close(): void {
    this.closed = true;
    for (const h of this.closeHooks.splice(0)) h();
  }

  onClose(hook: () => void): void {
    this.closeHooks.push(hook);
  }

  private async drain(): Promise<void> {
    while (this.head < this.queue.length) {
      const idx = this.head;
      const e = this.queue[idx]!;
      this.queue[idx] = HOLE;
      this.head++;
      if (e === HOLE) continue;
      if (e.type === 'tick' && this.pendingTick.get(e.instrument) === idx) this.pendingTick.delete(e.instrument);
      try {
        const r = this.handler(e);
        if (r) await r;
      } catch (err) {
        this.log.error({ err, consumer: this.name, eventType: e.type }, 'slow consumer failed on an event; continuing');
      }
      this.deliveredCount++;
      if (this.head >= 4096 && this.head * 2 >= this.queue.length) this.compact();
    }
    this.queue = [];
    this.head = 0;
    this.pendingTick.clear();
    this.draining = false;
    this.warned = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private compact(): void {
    const shift = this.head;
    this.queue = this.queue.slice(shift);
    this.head = 0;
    for (const [k, v] of this.pendingTick) this.pendingTick.set(k, v - shift);
  }
}
