/**
 * The daemon's side of the store's connection: its changes as `lifecycle` events (source `store`,
 * which health and the alerter follow: STORE_DISCONNECTED when it stays down), and after a
 * reconnect (the server may have restarted empty) everything the daemon holds written back.
 */
import type { Clock } from '../core/clock.js';
import type { LifecycleEvent } from '../core/events.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import { STORE_SOURCE } from '../adapters/ops/alerter.js';
import { journaledTags, writeJournalEntry } from '../adapters/execution/order-journal.js';
import { parseTag } from '../adapters/execution/tags.js';
import type { Engine } from '../engine/engine.js';
import type { SessionStats } from './session-stats.js';

/** The store's connection change as a lifecycle event (source `store`, see the alerter). */
export function storeLifecycle(state: 'ready' | 'reconnecting', ts: number): LifecycleEvent {
  return state === 'ready'
    ? { type: 'lifecycle', ts, phase: 'connected', source: STORE_SOURCE, cause: 'reconnected' }
    : { type: 'lifecycle', ts, phase: 'disconnected', source: STORE_SOURCE, cause: 'dropped' };
}

/**
 * After a store reconnect: the engine re-writes its state, and the run counter behind our tags
 * is raised back to at least the highest run seen in our orders, so that a later restart can
 * never mint a tag the broker already holds.
 */
export async function repersist(o: { engine: Engine; store: Store; stats: SessionStats; clock: Clock; log: Logger }): Promise<void> {
  const { engine, store, stats } = o;
  try {
    await engine.persist();
    // The engine may keep only working orders in memory; the daemon has seen every order of the
    // session on the bus, so the journal entries of finished ones are written back from there.
    const journal = await journaledTags(store);
    let maxRun = 0;
    const tags = new Set([...engine.orderTags(), ...stats.orders().keys()]);
    for (const tag of tags) {
      // Our tags as the engine mints them with its default prefix.
      const parsed = parseTag(tag);
      if (parsed) maxRun = Math.max(maxRun, parsed.run);
      const order = stats.orders().get(tag);
      if (order && !journal.has(tag) && !order.parentTag) {
        await writeJournalEntry(store, tag, { strategyId: order.strategyId, instrument: order.instrument, side: order.side, qty: order.qty, ts: o.clock.now() });
      }
    }
    const stored = (await store.get<number>('engine', 'run')) ?? 0;
    if (maxRun > stored) await store.set('engine', 'run', maxRun);
    o.log.info({ maxRun, orders: tags.size }, 'daemon: state re-persisted after a store reconnect');
  } catch (e) {
    o.log.error({ err: e }, 'daemon: re-persisting state after a store reconnect failed');
  }
}
