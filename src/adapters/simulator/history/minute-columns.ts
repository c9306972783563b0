/**
 * One instrument's 1-minute bars of one day as columns (struct of arrays), appended in time
 * order: minute starts, OHLC interleaved, traded volume and, once a tick carried it, open
 * interest. Prices are integer paise held in an Int32Array while they fit (every listed price
 * does: 2^31 paise is 2.1 crore rupees), volumes in a Uint32Array while they fit; a value that
 * does not moves its column to a Float64Array, so everything stays exact.
 * Capacity grows by doubling up to 256 bars, then by 128: a 375-minute session ends at 384.
 */
import type { Paise } from '../../../core/money.js';
import type { Bar } from './types.js';

const MINUTE_MS = 60_000;
const FIRST_CAPACITY = 16;

export class MinuteColumns {
  private n = 0;
  /** Epoch minute of each bar's start. */
  private start = new Int32Array(FIRST_CAPACITY);
  /** open, high, low, close of bar k at 4k .. 4k+3. */
  private px: Int32Array | Float64Array = new Int32Array(FIRST_CAPACITY * 4);
  private vol: Uint32Array | Float64Array = new Uint32Array(FIRST_CAPACITY);
  /** Open interest; NaN where the bar saw none. Allocated by the first tick that carries it. */
  private oi: Float64Array | undefined;
  /** Cumulative day volume of the last tick that carried one (NaN: none yet). */
  private lastCumVolume = NaN;

  /** Bars held. */
  get length(): number {
    return this.n;
  }

  /**
   * Folds a tick at `minuteStart` (epoch ms of its minute) into the bars. A tick from a minute
   * before the last bar's is ignored (out of order); its volume still counts from the next one.
   */
  add(minuteStart: number, ltp: Paise, cumVolume: number | undefined, oi: number | undefined): void {
    const traded = cumVolume !== undefined && this.lastCumVolume === this.lastCumVolume ? Math.max(0, cumVolume - this.lastCumVolume) : 0;
    if (cumVolume !== undefined) this.lastCumVolume = cumVolume;
    if (this.px instanceof Int32Array && (ltp | 0) !== ltp) this.px = widened(this.px);
    const minute = Math.floor(minuteStart / MINUTE_MS);
    const n = this.n;
    const last = n - 1;
    if (this.vol instanceof Uint32Array && !(n > 0 && this.start[last] === minute ? fitsU32(this.vol[last]! + traded) : fitsU32(traded))) this.vol = widened(this.vol);
    const px = this.px;
    if (n > 0 && this.start[last] === minute) {
      const b = 4 * last;
      if (ltp > px[b + 1]!) px[b + 1] = ltp;
      if (ltp < px[b + 2]!) px[b + 2] = ltp;
      px[b + 3] = ltp;
      this.vol[last] = this.vol[last]! + traded;
      if (oi !== undefined) this.oiColumn()[last] = oi;
      return;
    }
    if (n > 0 && minute < this.start[last]!) return;
    if (n === this.start.length) this.grow();
    this.start[n] = minute;
    const b = 4 * n;
    const p = this.px;
    p[b] = p[b + 1] = p[b + 2] = p[b + 3] = ltp;
    this.vol[n] = traded;
    if (oi !== undefined) this.oiColumn()[n] = oi;
    else if (this.oi) this.oi[n] = NaN;
    this.n = n + 1;
  }

  /** The bars starting before `untilMs`, as new objects (the caller may keep them). */
  bars(untilMs: number): Bar[] {
    const out: Bar[] = [];
    const px = this.px;
    for (let k = 0; k < this.n; k++) {
      const start = this.start[k]! * MINUTE_MS;
      if (start >= untilMs) break;
      const b = 4 * k;
      const oi = this.oi?.[k];
      const bar: Bar = { start, open: px[b]!, high: px[b + 1]!, low: px[b + 2]!, close: px[b + 3]!, volume: this.vol[k]! };
      out.push(oi !== undefined && oi === oi ? { ...bar, oi } : bar);
    }
    return out;
  }

  private oiColumn(): Float64Array {
    if (!this.oi) {
      this.oi = new Float64Array(this.start.length);
      this.oi.fill(NaN);
    }
    return this.oi;
  }

  private grow(): void {
    const cap = this.start.length;
    const next = cap < 256 ? cap * 2 : cap + 128;
    this.start = copyInto(new Int32Array(next), this.start);
    this.px = copyInto(this.px instanceof Int32Array ? new Int32Array(next * 4) : new Float64Array(next * 4), this.px);
    this.vol = copyInto(this.vol instanceof Uint32Array ? new Uint32Array(next) : new Float64Array(next), this.vol);
    if (this.oi) {
      const oi = copyInto(new Float64Array(next), this.oi);
      oi.fill(NaN, cap);
      this.oi = oi;
    }
  }
}

type Column = Int32Array | Uint32Array | Float64Array;

function copyInto<T extends Column>(to: T, from: Column): T {
  to.set(from);
  return to;
}

function widened(c: Column): Float64Array {
  return copyInto(new Float64Array(c.length), c);
}

function fitsU32(x: number): boolean {
  return x >>> 0 === x;
}
