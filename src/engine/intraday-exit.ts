/**
 * The engine's own intraday exit (`shutdown.intradayExitAt`, default five minutes before the
 * broker's square-off; rules/square-off.ts): at a segment's exit time every strategy's open
 * INTRADAY orders in that segment are cancelled and its INTRADAY positions there are closed at
 * market, through the bus like any intent (risk sees them; an exit is never denied for the cutoff),
 * so the strategy, not the broker's RMS, ends the day. From then until the close the risk check
 * `intradayCutoff` denies INTRADAY orders that open or add.
 *
 * Driven by market events (`onEvent(ts)` per tick or candle, one comparison when nothing is due),
 * so the backtest's virtual clock and the daemon's real one behave alike.
 */
import type { Clock } from '../core/clock.js';
import type { EventBus } from '../core/bus/event-bus.js';
import type { Intent } from '../core/intents.js';
import type { InstrumentLookup } from '../core/instruments.js';
import { istDayStart, MINUTE_MS } from '../core/time.js';
import { SESSION_CLOSE_MINUTE } from '../core/candles.js';
import type { OrderStateMachine } from '../adapters/execution/order-state-machine.js';
import type { Portfolio } from '../adapters/execution/portfolio.js';
import { isSquaredOffProduct, SQUARE_OFF_SEGMENTS, squareOffSegment, type SquareOffSegment, type SquareOffTimes } from '../risk/rules/square-off.js';

export interface IntradayExitOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly instruments: InstrumentLookup;
  readonly orders: OrderStateMachine;
  readonly portfolio: Portfolio;
  /** Exit minute of the IST day per segment. */
  readonly times: SquareOffTimes;
  readonly newTag: () => string;
}

export class IntradayExit {
  /** Epoch ms of the next exit due, Infinity when none is left today (recomputed per day). */
  private next = -Infinity;
  private day = -1;
  private readonly done = new Set<SquareOffSegment>();
  /** Tags of the exit intents (the orders they place carry them): a report can tell these exits apart. */
  readonly tags = new Set<string>();

  constructor(private readonly o: IntradayExitOptions) {}

  /** Exit minute of the IST day per segment. */
  get times(): SquareOffTimes {
    return this.o.times;
  }

  /** Call on every market event; exits the segments whose time has come today. */
  onEvent(ts: number): void {
    if (ts < this.next) return;
    const day = istDayStart(ts);
    if (day !== this.day) {
      this.day = day;
      this.done.clear();
    }
    const minute = Math.floor((ts - day) / MINUTE_MS);
    let next = Infinity;
    for (const seg of SQUARE_OFF_SEGMENTS) {
      const at = this.o.times[seg];
      if (this.done.has(seg)) continue;
      // Between the exit time and the close: exit now. Past the close: nothing to do until tomorrow.
      if (minute >= at && minute < SESSION_CLOSE_MINUTE) {
        this.done.add(seg);
        this.exit(seg);
      } else if (minute < at) next = Math.min(next, day + at * MINUTE_MS);
    }
    this.next = next === Infinity ? day + 24 * 60 * MINUTE_MS : next;
  }

  private exit(segment: SquareOffSegment): void {
    const { orders, portfolio, instruments, bus, clock } = this.o;
    const inSegment = (id: string): boolean => {
      const i = instruments.get(id);
      return i !== undefined && squareOffSegment(i) === segment;
    };
    const intents: Intent[] = [];
    const exiting = new Set<string>();
    for (const sid of portfolio.strategyIds()) {
      for (const p of portfolio.positions(sid)) {
        if (!isSquaredOffProduct(p.product) || p.netQty === 0 || !inSegment(p.instrument)) continue;
        const id = this.o.newTag();
        this.tags.add(id);
        exiting.add(`${sid}|${p.instrument}`);
        intents.push({ kind: 'exit', id, strategyId: sid, instrument: p.instrument, product: p.product, cancelOpenOrders: true });
      }
    }
    // Working INTRADAY orders where no position is exited (a resting entry): cancelled.
    for (const o of orders.openOrders()) {
      if (!isSquaredOffProduct(o.product) || !inSegment(o.instrument) || exiting.has(`${o.strategyId}|${o.instrument}`) || o.parentTag !== undefined) continue;
      intents.push({ kind: 'cancel', id: this.o.newTag(), strategyId: o.strategyId, target: o.tag });
    }
    for (const intent of intents) bus.publish({ type: 'intent', ts: clock.now(), intent });
  }
}
