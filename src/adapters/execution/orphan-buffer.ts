/**
 * Venue updates (order states, fills) for an order id the order state machine cannot place yet: a
 * stream update racing the placement answer, a smart leg not yet named. They wait here by venue id
 * and are taken out the moment the id is linked. Bounded: past `max` ids the oldest id's updates
 * are dropped (an id never linked is not ours, or its order was long forgotten).
 */
export class OrphanBuffer<T> {
  private readonly byId = new Map<string, T[]>();

  constructor(private readonly max: number) {}

  park(orderId: string, item: T): void {
    let list = this.byId.get(orderId);
    if (!list) {
      if (this.byId.size >= this.max) {
        const oldest = this.byId.keys().next().value;
        if (oldest !== undefined) this.byId.delete(oldest);
      }
      this.byId.set(orderId, (list = []));
    }
    list.push(item);
  }

  /** Removes and returns what waits for the id (undefined when nothing does). */
  take(orderId: string): T[] | undefined {
    const list = this.byId.get(orderId);
    if (list) this.byId.delete(orderId);
    return list;
  }

  ids(): IterableIterator<string> {
    return this.byId.keys();
  }
}
