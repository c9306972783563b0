/**
 * What the recorded session did, gathered line by line while the replay reads the recording: its
 * decisions (intents, after which market event), risk answers, orders, fills, and the stream gaps
 * (a `disconnected` ... `connected` of the order stream or a price feed). Each with its line, and
 * with when it reached the engine: the time of the market data recorded just before it (events
 * carry the venue's own time, so a fill that arrives late after a reconnect shows as a fill whose
 * `ts` is well before the market time it was recorded at).
 */
import type { DeniedEvent, FillEvent, OrderSnapshot } from '../../src/core/events.js';
import type { Intent } from '../../src/core/intents.js';
import type { Paise } from '../../src/core/money.js';
import type { RecordedLine } from '../../src/engine/recording/reader.js';

export interface LiveDecision {
  readonly intent: Intent;
  readonly ts: number;
  readonly market: number;
  readonly line: number;
}

export interface LiveFill {
  readonly fill: FillEvent;
  readonly market: number;
  readonly line: number;
  /** Market time when the engine booked it. */
  readonly arrived: number;
}

export interface StreamGap {
  readonly source: string;
  readonly from: number;
  /** Undefined: never reconnected in the recording. */
  readonly to: number | undefined;
  readonly line: number;
}

export class LiveSession {
  readonly decisions: LiveDecision[] = [];
  readonly denials = new Map<string, { readonly denied: DeniedEvent; readonly line: number }>();
  readonly firstOrder = new Map<string, { readonly order: OrderSnapshot; readonly line: number; readonly market: number }>();
  readonly lastOrder = new Map<string, { readonly order: OrderSnapshot; readonly line: number; readonly market: number }>();
  readonly fills: LiveFill[] = [];
  readonly gaps: StreamGap[] = [];
  readonly lastPrices = new Map<string, Paise>();
  /** Minute closes of the sampled instruments (for the report's price chart): [epoch ms, ltp]. */
  readonly minutes = new Map<string, Array<[number, Paise]>>();
  /** Whether the recording shows the daemon stopping (a complete session). */
  stopped = false;
  lines = 0;
  private now = 0;
  private readonly open = new Map<string, { from: number; line: number }>();

  /** `sample`: instruments whose minute closes the report charts (the strategies' own). */
  constructor(sample: Iterable<string> = []) {
    for (const i of sample) this.minutes.set(i, []);
  }

  observe(r: RecordedLine, market: number): void {
    const e = r.event;
    this.lines = r.line;
    switch (e.type) {
      case 'tick': {
        this.now = Math.max(this.now, e.ts);
        this.lastPrices.set(e.instrument, e.ltp);
        const m = this.minutes.get(e.instrument);
        if (m) {
          const minute = e.ts - (e.ts % 60_000);
          const last = m[m.length - 1];
          if (last && last[0] === minute) last[1] = e.ltp;
          else m.push([minute, e.ltp]);
        }
        return;
      }
      case 'candle':
        this.now = Math.max(this.now, e.ts);
        return;
      case 'intent':
        this.decisions.push({ intent: e.intent, ts: e.ts, market, line: r.line });
        return;
      case 'denied':
        this.denials.set(e.intent.id, { denied: e, line: r.line });
        return;
      case 'order': {
        const entry = { order: e.order, line: r.line, market };
        if (!this.firstOrder.has(e.order.tag)) this.firstOrder.set(e.order.tag, entry);
        this.lastOrder.set(e.order.tag, entry);
        return;
      }
      case 'fill':
        this.fills.push({ fill: e, market, line: r.line, arrived: Math.max(this.now, e.ts) });
        return;
      case 'lifecycle':
        if (e.phase === 'disconnected') {
          if (!this.open.has(e.source)) this.open.set(e.source, { from: e.ts, line: r.line });
        } else if (e.phase === 'connected') {
          const o = this.open.get(e.source);
          if (o) {
            this.gaps.push({ source: e.source, from: o.from, to: e.ts, line: o.line });
            this.open.delete(e.source);
          }
        } else if (e.phase === 'stopping' && e.source === 'daemon') this.stopped = true;
        return;
      default:
        return;
    }
  }

  /** Gaps still open at the end of the recording are closed there. */
  finish(): void {
    for (const [source, o] of this.open) this.gaps.push({ source, from: o.from, to: undefined, line: o.line });
    this.open.clear();
  }

  /** The stream gaps overlapping [from, to]. */
  gapsIn(from: number, to: number): StreamGap[] {
    return this.gaps.filter((g) => g.from <= to && (g.to ?? Infinity) >= from);
  }
}
