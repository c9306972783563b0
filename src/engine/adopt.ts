/**
 * Adoption: an order in the broker's book carries one of our tags but the engine does not track
 * it (a restart, a write whose answer was lost). It is taken under the strategy the journal
 * (tag -> strategy, in the store) names; when the store lost the journal (a flushed Redis), under
 * the strategy whose key the tag carries (tags.ts: the broker keeps the tag in `remarks`); only
 * when neither says, under "unknown". Either way without the journal, an ORDER_ADOPTED alert.
 */
import type { AlertLevel } from '../core/events.js';
import type { JournalEntry } from '../adapters/execution/order-journal.js';
import type { NewOrder } from '../adapters/execution/order-state-machine.js';
import { parseTag, rootTag } from '../adapters/execution/tags.js';
import type { VenueOrderState } from '../adapters/execution/venue.js';

export interface AdoptionContext {
  readonly journal: ReadonlyMap<string, JournalEntry>;
  /** Strategy key -> strategy id of the configured strategies. */
  readonly byKey: ReadonlyMap<string, string>;
  /** Our tag prefix. */
  readonly prefix: string;
  readonly alert: (a: { level: AlertLevel; code: string; message: string; context: Record<string, unknown> }) => void;
}

/** The order to track for a venue order of ours, or undefined when the record lacks what tracking needs. */
export function adoptOrder(s: VenueOrderState, c: AdoptionContext): NewOrder | undefined {
  if (!s.tag || !s.instrument || !s.side || !s.qty || !s.orderType) return undefined;
  const root = rootTag(s.tag);
  const j = c.journal.get(root);
  const keyed = parseTag(root, c.prefix)?.strategyKey;
  const strategyId = j?.strategyId ?? (keyed !== undefined ? c.byKey.get(keyed) : undefined) ?? 'unknown';
  if (!j) {
    const how = strategyId === 'unknown' ? 'adopted as strategy "unknown"' : `adopted under strategy "${strategyId}" by the key in its tag`;
    c.alert({ level: 'warn', code: 'ORDER_ADOPTED', message: `venue order ${s.orderId} carries our tag ${s.tag} but is not in the journal; ${how}`, context: { tag: s.tag, strategyId } });
  }
  const leg = s.leg && s.leg !== 'entry' ? s.leg : undefined;
  return {
    tag: leg ? `${s.tag}${leg === 'stopLoss' ? '.sl' : '.tg'}` : s.tag,
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
