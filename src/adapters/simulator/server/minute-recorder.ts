/**
 * Records today's live ticks as 1-minute bars, so `/market/historical` answers today with the
 * path clients saw on the WebSocket (the history service's `LiveMinuteSource` hook). Cash,
 * index and futures instruments only: options are most of the universe and would cost hundreds
 * of MB; their candles stay the generator's. Typed arrays per instrument, reset at each session.
 */
import type { Instrument } from '../../../core/instruments.js';
import { MINUTE_MS } from '../../../core/time.js';
import type { Bar, LiveMinuteSource } from '../history/types.js';
import type { MarketTick } from '../market/types.js';

interface Series {
  open: Int32Array;
  high: Int32Array;
  low: Int32Array;
  close: Int32Array;
  volume: Float64Array;
  oi: Float64Array;
  /** Last minute index written, -1 before the first tick. */
  last: number;
}

export class MinuteRecorder implements LiveMinuteSource {
  private readonly tracked = new Set<string>();
  private readonly series = new Map<string, Series>();
  private sessionOpen = Number.NaN;
  private readonly minutes: number;

  constructor(
    instruments: Iterable<Instrument>,
    /** The open of the session being recorded (changes at each roll). */
    private readonly currentOpen: () => number,
    sessionLengthMs: number,
  ) {
    for (const i of instruments) if (i.kind !== 'OPTIDX' && i.kind !== 'OPTSTK') this.tracked.add(i.id);
    this.minutes = Math.ceil(sessionLengthMs / MINUTE_MS);
  }

  record(t: MarketTick): void {
    if (!this.tracked.has(t.instrument)) return;
    const open = this.currentOpen();
    if (open !== this.sessionOpen) {
      this.sessionOpen = open;
      this.series.clear();
    }
    const m = Math.floor((t.ts - open) / MINUTE_MS);
    if (m < 0 || m >= this.minutes) return;
    let s = this.series.get(t.instrument);
    if (!s) {
      const n = this.minutes;
      s = { open: new Int32Array(n), high: new Int32Array(n), low: new Int32Array(n), close: new Int32Array(n), volume: new Float64Array(n), oi: new Float64Array(n), last: -1 };
      this.series.set(t.instrument, s);
    }
    const p = t.ltp;
    if (m > s.last) {
      // Minutes without a trade carry the last close, flat, with no volume.
      const prev = s.last >= 0 ? s.close[s.last]! : p;
      for (let k = s.last + 1; k < m; k++) {
        s.open[k] = s.high[k] = s.low[k] = s.close[k] = prev;
        s.oi[k] = s.last >= 0 ? s.oi[s.last]! : (t.oi ?? 0);
      }
      s.open[m] = s.high[m] = s.low[m] = p;
      s.last = m;
    } else if (m < s.last) {
      return;
    }
    if (p > s.high[m]!) s.high[m] = p;
    if (p < s.low[m]!) s.low[m] = p;
    s.close[m] = p;
    s.volume[m] = s.volume[m]! + t.lastQty;
    s.oi[m] = t.oi ?? 0;
  }

  minuteBars(scripCode: string, untilMs: number): readonly Bar[] | undefined {
    const s = this.series.get(scripCode);
    if (!s) return undefined;
    const out: Bar[] = [];
    for (let k = 0; k <= s.last; k++) {
      const start = this.sessionOpen + k * MINUTE_MS;
      if (start >= untilMs) break;
      const oi = s.oi[k]!;
      out.push({ start, open: s.open[k]!, high: s.high[k]!, low: s.low[k]!, close: s.close[k]!, volume: s.volume[k]!, ...(oi > 0 ? { oi } : {}) });
    }
    return out;
  }
}
