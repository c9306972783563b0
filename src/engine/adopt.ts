/**
 * Adoption: an order in the broker's book carries one of our tags but the engine does not track
 * it (a restart, a write whose answer was lost). It is taken under the strategy the journal
 * (tag -> strategy, in the store) names; when the store lost the journal (a flushed Redis), under
 * the strategy whose key the tag carries (tags.ts: the broker keeps the tag in `remarks`); only
 * when neither says, under "unknown", with an ORDER_ADOPTED alert each. Orders adopted by their
 * key are handed to `byKeyAdopted`: a lost store meets every order of the day at once, and the
 * engine says so in one alert, not one per order.
 */
import type { AlertLevel } from '../core/events.js';
import type { JournalEntry } from '../adapters/execution/order-journal.js';
import type { NewOrder } from '../adapters/execution/order-state-machine.js';
import { legTag, parseTag, rootTag } from '../adapters/execution/tags.js';
import type { VenueOrderState } from '../adapters/execution/venue.js';

export interface AdoptionContext {
  readonly journal: ReadonlyMap<string, JournalEntry>;
  /** Strategy key -> strategy id of the configured strategies. */
  readonly byKey: ReadonlyMap<string, string>;
  /** Our tag prefix. */
  readonly prefix: string;
  readonly alert: (a: { level: AlertLevel; code: string; message: string; context: Record<string, unknown> }) => void;
  /** An order the journal missed, taken under the strategy its tag's key names. */
  readonly byKeyAdopted: (tag: string, strategyId: string) => void;
}

/** The order to track for a venue order of ours, or undefined when the record lacks what tracking needs. */
export function adoptOrder(s: VenueOrderState, c: AdoptionContext): NewOrder | undefined {
  if (!s.tag || !s.instrument || !s.side || !s.qty || !s.orderType) return undefined;
  const root = rootTag(s.tag);
  const j = c.journal.get(root);
  const keyed = parseTag(root, c.prefix)?.strategyKey;
  const strategyId = j?.strategyId ?? (keyed !== undefined ? c.byKey.get(keyed) : undefined) ?? 'unknown';
  if (!j && strategyId !== 'unknown') c.byKeyAdopted(s.tag, strategyId);
  else if (!j) c.alert({ level: 'warn', code: 'ORDER_ADOPTED', message: `venue order ${s.orderId} carries our tag ${s.tag} but is not in the journal and names no strategy of ours; adopted as strategy "unknown"`, context: { tag: s.tag, strategyId } });
  const leg = s.leg && s.leg !== 'entry' ? s.leg : undefined;
  return {
    tag: leg ? legTag(s.tag, leg) : s.tag,
    strategyId,
    instrument: s.instrument,
    side: s.side,
    qty: s.qty,
    orderType: s.orderType,
    product: s.product ?? 'INTRADAY',
    validity: s.validity ?? 'DAY',
    ...(s.limitPrice !== undefined ? { limitPrice: s.limitPrice } : {}),
    ...(s.triggerPrice !== undefined ? { triggerPrice: s.triggerPrice } : {}),
    ...(leg ? { parentTag: s.tag, leg } : {}),
    ...(s.modifications !== undefined ? { modifications: s.modifications } : {}),
  };
}

type AdoptionAlert = { level: AlertLevel; code: string; message: string; context: Record<string, unknown> };

/**
 * Orders adopted by their tag's key, counted per strategy and announced together: one
 * ORDER_ADOPTED alert after the book read that met them (a microtask later), not one per order.
 */
export class KeyAdoptions {
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly alert: (a: AdoptionAlert) => void,
    private readonly each: (tag: string, strategyId: string) => void,
  ) {}

  note(tag: string, strategyId: string): void {
    const first = this.pending.size === 0;
    this.pending.set(strategyId, (this.pending.get(strategyId) ?? 0) + 1);
    this.each(tag, strategyId);
    if (first) queueMicrotask(() => this.announce());
  }

  private announce(): void {
    const byStrategy = Object.fromEntries(this.pending);
    this.pending.clear();
    const count = Object.values(byStrategy).reduce((n, k) => n + k, 0);
    const list = Object.entries(byStrategy).map(([id, n]) => `${id} ${n}`).join(', ');
    this.alert({
      level: 'warn',
      code: 'ORDER_ADOPTED',
      message: `${count} order(s) of ours in the broker's book were not in the journal (a lost or flushed store?); adopted under the strategies their tags name: ${list}`,
      context: { count, byStrategy },
    });
  }
}
