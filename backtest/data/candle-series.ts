/**
 * A candle series held column-wise: one typed array per field. A million minute candles take
 * 64 MB this way instead of the ~200 MB of a million objects, and the replay loop reads them
 * without chasing pointers. Prices are integer paise stored in Float64Array (exact below 2^53;
 * Int32 would overflow above ~2.1 crore rupees).
 *
 * Time convention (see README): `start[i]` is the bar's open time (spec 4.2, the bar covers
 * [start, start + interval)); `ts[i]` is its close, the moment a strategy may first see it
 * (CandleEvent.ts). Files labelled by bar end are converted at load time.
 */
import type { Interval } from '../../src/core/candles.js';
import type { CandleEvent } from '../../src/core/events.js';

export interface CandleSeries {
  /** Instrument id used on the bus (a scrip code like `NSE_2885`, or the file's symbol). */
  readonly instrument: string;
  readonly interval: Interval;
  readonly length: number;
  readonly start: Float64Array;
  readonly ts: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** Open interest, when the source has it. */
  readonly oi?: Float64Array;
  /** Contract lot size read from the source (derivatives files), if any. */
  readonly lotSize?: number;
}

/** One candle read out of a series (for tests and reports; the replay reads the arrays). */
export type CandleRow = Pick<CandleEvent, 'start' | 'ts' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'oi'>;

export function candleAt(s: CandleSeries, i: number): CandleRow {
  if (i < 0 || i >= s.length) throw new RangeError(`candle ${i} outside series of ${s.length}`);
  const row: CandleRow = {
    start: s.start[i]!,
    ts: s.ts[i]!,
    open: s.open[i]!,
    high: s.high[i]!,
    low: s.low[i]!,
    close: s.close[i]!,
    volume: s.volume[i]!,
  };
  return s.oi ? { ...row, oi: s.oi[i]! } : row;
}

/** Growable columns used while loading; `finish` trims them into a CandleSeries. */
export class SeriesBuilder {
  length = 0;
  start: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  oi: Float64Array | undefined;
  /** 1-based source line of each row, for messages after sorting. */
  line: Uint32Array;
  lotSize: number | undefined;

  constructor(
    readonly symbol: string,
    capacity = 1024,
    withOi = false,
  ) {
    this.start = new Float64Array(capacity);
    this.open = new Float64Array(capacity);
    this.high = new Float64Array(capacity);
    this.low = new Float64Array(capacity);
    this.close = new Float64Array(capacity);
    this.volume = new Float64Array(capacity);
    this.oi = withOi ? new Float64Array(capacity) : undefined;
    this.line = new Uint32Array(capacity);
  }

  push(start: number, o: number, h: number, l: number, c: number, v: number, oi: number, line: number): void {
    if (this.length === this.start.length) this.grow();
    const i = this.length++;
    this.start[i] = start;
    this.open[i] = o;
    this.high[i] = h;
    this.low[i] = l;
    this.close[i] = c;
    this.volume[i] = v;
    if (this.oi) this.oi[i] = oi;
    this.line[i] = line;
  }

  private grow(): void {
    const n = Math.max(1024, this.start.length * 2);
    const g = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.start = g(this.start);
    this.open = g(this.open);
    this.high = g(this.high);
    this.low = g(this.low);
    this.close = g(this.close);
    this.volume = g(this.volume);
    if (this.oi) this.oi = g(this.oi);
    const line = new Uint32Array(n);
    line.set(this.line);
    this.line = line;
  }
}

/** Builds a series from rows (tests, adapter downloads). Rows must be sorted by start. */
export function seriesFromRows(instrument: string, interval: Interval, rows: readonly CandleRow[], lotSize?: number): CandleSeries {
  const n = rows.length;
  const col = (): Float64Array => new Float64Array(n);
  const s = { start: col(), ts: col(), open: col(), high: col(), low: col(), close: col(), volume: col() };
  const hasOi = rows.some((r) => r.oi !== undefined);
  const oi = hasOi ? col() : undefined;
  rows.forEach((r, i) => {
    s.start[i] = r.start;
    s.ts[i] = r.ts;
    s.open[i] = r.open;
    s.high[i] = r.high;
    s.low[i] = r.low;
    s.close[i] = r.close;
    s.volume[i] = r.volume;
    if (oi) oi[i] = r.oi ?? 0;
  });
  const base = { instrument, interval, length: n, ...s };
  const withOi = oi ? { ...base, oi } : base;
  return lotSize !== undefined ? { ...withOi, lotSize } : withOi;
}
