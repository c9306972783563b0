/**
 * Simple moving average over the last `period` values, O(1) per update with a ring buffer. Floats
 * are fine here (indicators are the one place they are); results go back to paise through
 * `roundToTick` at the boundary when they become prices.
 */
export class SMA {
  private readonly buf: Float64Array;
  private idx = 0;
  private n = 0;
  private sum = 0;

  constructor(readonly period: number) {
    if (!Number.isSafeInteger(period) || period < 1) throw new RangeError(`SMA: period must be a whole number >= 1, got ${period}`);
    this.buf = new Float64Array(period);
  }

  /** Adds a value; returns the average once `period` values have been seen, else undefined. */
  update(value: number): number | undefined {
    if (this.n === this.period) this.sum -= this.buf[this.idx]!;
    else this.n++;
    this.buf[this.idx] = value;
    this.sum += value;
    this.idx = (this.idx + 1) % this.period;
    return this.n === this.period ? this.sum / this.period : undefined;
  }

  get ready(): boolean {
    return this.n === this.period;
  }

  /** Current average, undefined until ready. */
  get value(): number | undefined {
    return this.ready ? this.sum / this.period : undefined;
  }
}
