/**
 * The equity curve as the replay records it: one sample per candle close time (after every
 * candle of that time has been played and seen), in typed arrays so a million samples cost 9-17 MB
 * and no allocation each.
 */
export class EquityRecorder {
  length = 0;
  /**
   * Sample times. While they are the times expected at construction (a one-series replay samples
   * at each candle's close), this is that array itself, not a copy: 8 MB fewer for 1M candles.
   * The first sample at another time makes the recorder take its own copy from there on.
   */
  ts: Float64Array;
  equity: Float64Array;
  /** 1 when any position was open at the sample. */
  exposed: Uint8Array;
  private ownTimes: boolean;

  constructor(capacity = 1024, expectedTs?: Float64Array) {
    const n = Math.max(16, capacity);
    this.ownTimes = expectedTs === undefined;
    this.ts = expectedTs ?? new Float64Array(n);
    this.equity = new Float64Array(n);
    this.exposed = new Uint8Array(n);
  }

  record(ts: number, equity: number, exposed: boolean): void {
    if (this.length === this.equity.length) this.grow();
    const i = this.length++;
    if (this.ownTimes) this.ts[i] = ts;
    else if (this.ts[i] !== ts) this.copyTimes(i, ts);
    this.equity[i] = equity;
    this.exposed[i] = exposed ? 1 : 0;
  }

  /** Sample `i` is not at the expected time: from here on the recorder keeps its own times. */
  private copyTimes(i: number, ts: number): void {
    const own = new Float64Array(this.equity.length);
    own.set(this.ts.subarray(0, i));
    own[i] = ts;
    this.ts = own;
    this.ownTimes = true;
  }

  private grow(): void {
    const n = this.equity.length * 2;
    if (this.ownTimes) {
      const ts = new Float64Array(n);
      ts.set(this.ts);
      this.ts = ts;
    }
    const eq = new Float64Array(n);
    eq.set(this.equity);
    const ex = new Uint8Array(n);
    ex.set(this.exposed);
    this.equity = eq;
    this.exposed = ex;
  }
}

export interface EquityCurve {
  readonly length: number;
  readonly ts: Float64Array;
  readonly equity: Float64Array;
  readonly exposed: Uint8Array;
}

export function freeze(r: EquityRecorder): EquityCurve {
  return { length: r.length, ts: r.ts.subarray(0, r.length), equity: r.equity.subarray(0, r.length), exposed: r.exposed.subarray(0, r.length) };
}
