/**
 * The engine's operator actions that wait for the venue: cancel everything, flatten everything.
 * Each resolves when the book shows it done, or when its time budget (clock time) runs out; the
 * daemon's stop, its session end and `tarang ctl` call them and read the result off the state.
 */
import type { EventBus } from '../core/bus/event-bus.js';
import type { Clock } from '../core/clock.js';
import type { ExecutionEngine } from '../adapters/execution/execution-engine.js';
import type { OrderStateMachine } from '../adapters/execution/order-state-machine.js';
import type { Portfolio } from '../adapters/execution/portfolio.js';

export interface OperatorActionDeps {
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly execution: ExecutionEngine;
  readonly orders: OrderStateMachine;
  readonly portfolio: Portfolio;
}

/** Resolves once `done()` holds after some bus event (or at once), or after `timeoutMs` of clock time. */
export function waitOnBus(d: Pick<OperatorActionDeps, 'bus' | 'clock'>, done: () => boolean, timeoutMs: number): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const t: { timer?: { cancel(): void } } = {};
    const off = d.bus.onAny(() => {
      if (done()) finish();
    });
    const finish = (): void => {
      off();
      t.timer?.cancel();
      resolve();
    };
    t.timer = d.clock.setTimeout(finish, timeoutMs);
  });
}

/** Cancels every working order; resolves when none is left or at the timeout. */
export async function cancelAllAndWait(d: OperatorActionDeps, timeoutMs: number): Promise<void> {
  d.execution.cancelAll();
  await waitOnBus(d, () => d.orders.openCount() === 0, timeoutMs);
}

/** Cancels every working order and closes every position at market; resolves when flat or at the timeout. */
export async function flattenAndWait(d: OperatorActionDeps, timeoutMs: number): Promise<void> {
  const { clock, orders, portfolio, execution } = d;
  const end = clock.now() + timeoutMs;
  const left = (): number => Math.max(0, end - clock.now());
  const settled = (): boolean => orders.settling().length === 0;
  // An order the broker reports filled whose fills are still being read is not in the position
  // yet: flattening before it settles would leave that position open (a stop would walk away
  // holding it). Wait for it, within the same time budget.
  await waitOnBus(d, settled, timeoutMs);
  execution.flattenAll('operator');
  const flat = (): boolean => portfolio.positions().length === 0 && orders.openCount() === 0 && settled();
  await waitOnBus(d, () => flat() || (orders.openCount() === 0 && settled()), left());
  // A fill booked while the closing orders worked (a late partial, say) leaves a remainder: once more.
  if (!flat() && orders.openCount() === 0 && portfolio.positions().length > 0 && left() > 0) {
    execution.flattenAll('operator');
    await waitOnBus(d, flat, left());
  }
}
