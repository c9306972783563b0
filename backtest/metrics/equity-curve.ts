/**
 * The equity curve as the replay records it: one sample per candle close time (after every
 * candle of that time has been played and seen), in typed arrays so a million samples cost 17 MB
 * and no allocation each.
 */
export class EquityRecorder {
  length = 0;
  ts: Float64Array;
  equity: Float64Array;
  /** 1 when any position was open at the sample. */
  exposed: Uint8Array;

  constructor(capacity = 1024) {
    this.ts = new Float64Array(Math.max(16, capacity));
    this.equity = new Float64Array(Math.max(16, capacity));
    this.exposed = new Uint8Array(Math.max(16, capacity));
  }

  record(ts: number, equity: number, exposed: boolean): void {
    if (this.length === this.ts.length) this.grow();
    const i = this.length++;
    this.ts[i] = ts;
    this.equity[i] = equity;
    this.exposed[i] = exposed ? 1 : 0;
  }

  private grow(): void {
    const n = this.ts.length * 2;
    const ts = new Float64Array(n);
    ts.set(this.ts);
    const eq = new Float64Array(n);
    eq.set(this.equity);
    const ex = new Uint8Array(n);
    ex.set(this.exposed);
    this.ts = ts;
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
