/** Detects a crossing of two series (e.g. fast and slow moving averages) from one update to the next. */
export const Cross = { ABOVE: 'above', BELOW: 'below' } as const;
export type Cross = (typeof Cross)[keyof typeof Cross];

export class CrossDetector {
  private prev: number | undefined;

  /** Feeds `a - b`'s inputs; returns 'above' when a moved from <= b to > b, 'below' for the reverse. */
  update(a: number, b: number): Cross | undefined {
    const d = a - b;
    const p = this.prev;
    this.prev = d;
    if (p === undefined) return undefined;
    if (p <= 0 && d > 0) return Cross.ABOVE;
    if (p >= 0 && d < 0) return Cross.BELOW;
    return undefined;
  }
}
