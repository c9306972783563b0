/**
 * The event bus: one ordered stream of every Event (ticks, candles, intents, denials, order
 * updates, fills, positions, lifecycle, alerts), whatever its source.
 *
 * Ordering. Publishing is synchronous and run-to-completion: an event is delivered to every
 * handler before the next one starts. An event published from inside a handler (a strategy's
 * intent while it handles a tick, a candle closed by a tick, an order update emitted by an
 * in-process venue during `place()`) is queued FIFO and delivered after the current one. So every
 * subscriber sees the same total order, and a backtest is deterministic.
 *
 * Hot path. Handlers registered with `on(type, fn)` are called directly from a per-type array: no
 * RxJS operator chain, no allocation per event. That is what the engine's own parts use (candle
 * builder, strategies, risk, execution, portfolio), and what keeps 1,000,000+ events/s.
 * `events$` / `of$(type)` expose the same stream as RxJS Observables for everything else; they cost
 * nothing while unsubscribed.
 *
 * Backpressure. Hot-path handlers are synchronous and bounded (a strategy hook, a risk check); they
 * cannot block the bus for longer than their own CPU time. Anything slow or asynchronous (the JSONL
 * recorder, a terminal UI, metrics, Redis persistence, a webhook) must attach with `attachSlow`,
 * which gives it its own buffer drained at its own pace (see slow-consumer.ts): ticks are
 * conflated per instrument there (a slow reader gets the latest price, not a backlog), while
 * order, fill, position, denial, intent, lifecycle and alert events are never dropped. The tick
 * path never waits for a slow consumer.
 *
 * Errors. A handler that throws is logged and skipped; the bus and the other handlers go on.
 * (Strategies are isolated one level up, by the safe runner, which also pauses them.)
 */
import { Observable, type Subscription } from 'rxjs';
import { EventType, type Event, type EventOf } from '../events.js';
import type { Logger } from '../log.js';
import { silentLogger } from '../silent-log.js';
import { SlowConsumer, type SlowConsumerOptions } from './slow-consumer.js';

export type Handler<E> = (event: E) => void;
export type Unsubscribe = () => void;

/**
 * A subscriber object, for parts that live on the hot path and are built again for every run (the
 * engine in each backtest of a sweep): `onBusEvent` is one method on the class's prototype, so the
 * code V8 optimises for it serves every instance. A closure per instance (`(c) => this.onCandle(c)`)
 * is a new function each run, and V8 recompiled the hot path behind it on every run (later runs of
 * a 1M-candle backtest ~25% slower, and ~150 ms more compiler CPU each).
 */
export interface BusListener<E> {
  onBusEvent(event: E): void;
}

const TYPES: readonly EventType[] = Object.values(EventType);

export interface EventBusOptions {
  log?: Logger;
}

export class EventBus {
  private readonly byType = new Map<EventType, BusListener<Event>[]>();
  /** The handlers of the type delivered last (a backtest delivers candle after candle): no map lookup. Reset by every (un)subscription. */
  private lastType: EventType | undefined;
  private lastList: BusListener<Event>[] = [];
  private anyHandlers: Handler<Event>[] = [];
  private readonly queue: (Event | undefined)[] = [];
  private head = 0;
  private dispatching = false;
  private readonly log: Logger;
  private published = 0;
  private handlerErrors = 0;

  constructor(options: EventBusOptions = {}) {
    this.log = options.log ?? silentLogger();
    for (const t of TYPES) this.byType.set(t, []);
  }

  /** Events published so far (a cheap progress counter for metrics and benches). */
  get count(): number {
    return this.published;
  }

  /** Handler exceptions caught so far. */
  get errors(): number {
    return this.handlerErrors;
  }

  /** Events queued behind the one being delivered. */
  get backlog(): number {
    return this.queue.length - this.head;
  }

  /**
   * Delivers `event` to every handler, or queues it behind the event being delivered when called
   * from inside a handler. Returns once the queue is empty (outermost call) or at once (nested).
   */
  publish(event: Event): void {
    this.published++;
    if (this.dispatching) {
      this.queue.push(event);
      return;
    }
    this.dispatching = true;
    try {
      this.deliver(event);
      while (this.head < this.queue.length) {
        const next = this.queue[this.head]!;
        this.queue[this.head++] = undefined;
        this.deliver(next);
      }
    } finally {
      // Most events queue nothing: setting an array's length is a runtime call even when it is 0.
      if (this.queue.length !== 0) this.queue.length = 0;
      this.head = 0;
      this.dispatching = false;
    }
  }

  /**
   * Hot-path subscription to one event type: a function, or a listener object (see BusListener).
   * Handlers run in subscription order.
   */
  on<T extends EventType>(type: T, handler: Handler<EventOf<T>> | BusListener<EventOf<T>>): Unsubscribe {
    const list = this.byType.get(type);
    if (!list) throw new RangeError(`EventBus.on: unknown event type ${JSON.stringify(type)}`);
    const entry = (typeof handler === 'function' ? { onBusEvent: handler } : handler) as BusListener<Event>;
    // Copy-on-write so that (un)subscribing during a dispatch never disturbs the running loop.
    this.byType.set(type, [...list, entry]);
    this.lastType = undefined;
    return () => {
      const cur = this.byType.get(type)!;
      this.byType.set(type, cur.filter((h) => h !== entry));
      this.lastType = undefined;
    };
  }

  /** Hot-path subscription to every event, after the per-type handlers of each event. */
  onAny(handler: Handler<Event>): Unsubscribe {
    this.anyHandlers = [...this.anyHandlers, handler];
    return () => {
      this.anyHandlers = this.anyHandlers.filter((h) => h !== handler);
    };
  }

  /** The whole ordered stream as an Observable (synchronous delivery, hot, no replay). */
  readonly events$: Observable<Event> = new Observable<Event>((sub) => this.onAny((e) => sub.next(e)));

  /** One topic as an Observable. */
  of$<T extends EventType>(type: T): Observable<EventOf<T>> {
    return new Observable<EventOf<T>>((sub) => this.on(type, (e) => sub.next(e)));
  }

  /** Publishes everything a source emits (a WebSocket stream, a venue, a replay), in its order. */
  connect(source: Observable<Event>): Subscription {
    return source.subscribe({
      next: (e) => this.publish(e),
      error: (err: unknown) => this.log.error({ err }, 'bus: a connected source failed'),
    });
  }

  /**
   * Attaches a slow or asynchronous consumer behind its own buffer: it never blocks publishers.
   * Ticks conflate per instrument in that buffer; every other event is kept.
   */
  attachSlow(handler: (event: Event) => void | Promise<void>, options: SlowConsumerOptions = {}): SlowConsumer {
    const consumer = new SlowConsumer(handler, { log: this.log, ...options });
    const off = this.onAny((e) => consumer.push(e));
    consumer.onClose(off);
    return consumer;
  }

  private deliver(event: Event): void {
    let list = this.lastList;
    if (event.type !== this.lastType) {
      list = this.byType.get(event.type)!;
      this.lastType = event.type;
      this.lastList = list;
    }
    for (let i = 0; i < list.length; i++) {
      try {
        list[i]!.onBusEvent(event);
      } catch (err) {
        this.handlerFailed(err, event);
      }
    }
    const any = this.anyHandlers;
    for (let i = 0; i < any.length; i++) {
      try {
        any[i]!(event);
      } catch (err) {
        this.handlerFailed(err, event);
      }
    }
  }

  private handlerFailed(err: unknown, event: Event): void {
    this.handlerErrors++;
    this.log.error({ err, eventType: event.type }, 'bus: a handler threw; skipped');
  }
}
