/**
 * Detects a crossing of two series (e.g. fast and slow moving averages). The conventional rule: a
 * cross is a change of sign of (a - b) against the last non-zero sign; a touch (a == b) is no
 * signal by itself, and a touch that turns back the way it came is none at all. Feed exact values
 * (integers, e.g. cross-multiplied paise sums) so that a tie is a tie.
 */
export const Cross = { ABOVE: 'above', BELOW: 'below' } as const;
export type Cross = (typeof Cross)[keyof typeof Cross];

export class CrossDetector {
  /** Sign of the last non-zero difference; 0 until there is one. */
  private last = 0;

  /** Feeds `a - b`'s inputs; returns 'above' when a moved from below b to above it, 'below' for the reverse. */
  update(a: number, b: number): Cross | undefined {
    const s = a > b ? 1 : a < b ? -1 : 0;
    if (s === 0) return undefined;
    const prev = this.last;
    this.last = s;
    if (prev === 0 || prev === s) return undefined;
    return s > 0 ? Cross.ABOVE : Cross.BELOW;
  }
}
