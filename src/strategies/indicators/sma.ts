/**
 * Simple moving average over the last `period` values, O(1) per update with a ring buffer. Floats
 * are fine here (indicators are the one place they are); results go back to paise through
 * `roundToTick` at the boundary when they become prices. Fed integer paise, `sum` stays exact
 * (below 2^53), so two averages can be compared exactly by cross-multiplying their sums.
 */
export class SMA {
  private readonly buf: Float64Array;
  private idx = 0;
  private n = 0;
  private total = 0;

  constructor(readonly period: number) {
    if (!Number.isSafeInteger(period) || period < 1) throw new RangeError(`SMA: period must be a whole number >= 1, got ${period}`);
    this.buf = new Float64Array(period);
  }

  /** Adds a value; returns the average once `period` values have been seen, else undefined. */
  update(value: number): number | undefined {
    if (this.n === this.period) this.total -= this.buf[this.idx]!;
    else this.n++;
    this.buf[this.idx] = value;
    this.total += value;
    this.idx = (this.idx + 1) % this.period;
    return this.n === this.period ? this.total / this.period : undefined;
  }

  get ready(): boolean {
    return this.n === this.period;
  }

  /** Sum of the last `period` values: exact when they are integers (paise), unlike the average. */
  get sum(): number {
    return this.total;
  }

  /** Current average, undefined until ready. */
  get value(): number | undefined {
    return this.ready ? this.total / this.period : undefined;
  }
}
