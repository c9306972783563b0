/** Detects a crossing of two series (e.g. fast and slow moving averages) from one update to the next. */
export const Cross = { ABOVE: 'above', BELOW: 'below' } as const;
export type Cross = (typeof Cross)[keyof typeof Cross];

export class CrossDetector {
  // NaN until the first update, rather than `undefined`: a field that only ever holds numbers is
  // updated in place, where a number-or-undefined field boxes a fresh number on every candle.
  private prev = Number.NaN;

  /** Feeds `a - b`'s inputs; returns 'above' when a moved from <= b to > b, 'below' for the reverse. */
  update(a: number, b: number): Cross | undefined {
    const d = a - b;
    const p = this.prev;
    this.prev = d;
    if (p !== p) return undefined;
    if (p <= 0 && d > 0) return Cross.ABOVE;
    if (p >= 0 && d < 0) return Cross.BELOW;
    return undefined;
  }
}
