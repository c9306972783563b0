/**
 * The broker's intraday square-off as tarang sees it: orders it did not place (remarks
 * `BROKER-SQUAREOFF`, risk/rules/square-off.ts) whose fills close INTRADAY positions its
 * strategies hold. Such a fill is booked to those strategies (Portfolio.squareOffFills: the
 * portfolio, the strategies and the session figures stop carrying the position) and reported as
 * what it is: a `square-off` event per broker fill and a warning alert, since a strategy that
 * meets the broker's square-off has missed its own intraday exit.
 *
 * Stream fills and the trade book read at a resync both come here; each venue fill is booked once.
 * The broker's order states are not ours to track: the order state machine never sees them.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import { formatRupees } from '../../core/money.js';
import type { Portfolio } from './portfolio.js';
import type { VenueFill } from './venue.js';

export class BrokerSquareOffs {
  private readonly seen = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly portfolio: Portfolio,
    private readonly log: Logger,
  ) {}

  /** Books one fill of a broker square-off order (duplicates by `fillId` are ignored). */
  onFill(f: VenueFill): void {
    if (this.seen.has(f.fillId)) return;
    this.seen.add(f.fillId);
    const product = f.product ?? 'INTRADAY';
    const { fills, unowned } = this.portfolio.squareOffFills({ ...f, product });
    for (const e of fills) this.bus.publish(e);
    const strategies = fills.map((e) => ({ strategyId: e.strategyId, qty: e.qty }));
    this.bus.publish({ type: 'square-off', ts: f.ts, orderId: f.orderId, fillId: f.fillId, instrument: f.instrument, product, side: f.side, qty: f.qty, price: f.price, strategies, unowned });
    const who = strategies.length > 0 ? strategies.map((x) => `${x.strategyId} ${x.qty}`).join(', ') : 'no strategy';
    const message = `broker squared off ${f.instrument} ${product}: ${f.side} ${f.qty} at ${formatRupees(f.price)} (order ${f.orderId}; ${who}${unowned > 0 ? `; ${unowned} not held by any strategy` : ''})`;
    this.log.warn({ orderId: f.orderId, instrument: f.instrument, qty: f.qty, price: f.price, strategies, unowned }, 'execution: broker intraday square-off');
    this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'BROKER_SQUARE_OFF', message, context: { orderId: f.orderId, instrument: f.instrument, product, qty: f.qty, price: f.price, strategies, unowned } });
  }
}
