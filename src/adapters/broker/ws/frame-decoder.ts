/**
 * The WebSocket codec (wire-gaps "WebSocket"). Hot path: hand-written, no zod. One raw message may
 * hold several frames separated by newlines, each frame may be double-encoded (a JSON string
 * holding JSON), and a tick's `data` may carry only the fields that changed, so ticks are merged
 * per instrument with the last full state. Prices are rupees (number or string) and become paise.
 *
 * A frame that cannot be read raises DataException naming the stream and the field; the stream
 * logs it, counts it and goes on with the next frame (one bad frame must not end a live feed).
 */
import { parsePaise, type Paise } from '../../../core/money.js';
import type { TickEvent } from '../../../core/events.js';
import { DataException } from '../errors.js';
import { Slot, TickField, TickScanner } from './tick-scanner.js';

export type TickMode = 'ltp' | 'quote' | 'full';

/** Anything decoded from the stream. Order and position payloads are decoded later (not hot). */
export type StreamFrame =
  | { readonly kind: 'tick'; readonly tick: TickEvent }
  | { readonly kind: 'order_update'; readonly ts: number; readonly data: Record<string, unknown> }
  | { readonly kind: 'position_update'; readonly ts: number; readonly data: Record<string, unknown> }
  | { readonly kind: 'heartbeat'; readonly ts?: number }
  | { readonly kind: 'ack'; readonly raw: Record<string, unknown> }
  | { readonly kind: 'error'; readonly message: string; readonly raw: Record<string, unknown> };

type Obj = Record<string, unknown>;

function price(v: unknown, field: string, stream: string): Paise | undefined {
  if (typeof v === 'number') {
    if (v === v && v !== Infinity && v !== -Infinity) return Math.round(v * 100);
  } else if (typeof v === 'string') {
    if (v === '') return undefined;
    try {
      return parsePaise(v, field);
    } catch {
      /* falls through to the error below */
    }
  } else if (v === undefined || v === null) {
    return undefined;
  }
  throw new DataException(`${stream}: tick field ${field}: expected a price, got ${JSON.stringify(v)}`, { endpoint: stream, field });
}

function count(v: unknown, field: string, stream: string): number | undefined {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
  } else if (typeof v === 'string') {
    if (v === '') return undefined;
    const n = Number(v.replaceAll(',', ''));
    if (Number.isFinite(n)) return n;
  } else if (v === undefined || v === null) {
    return undefined;
  }
  throw new DataException(`${stream}: tick field ${field}: expected a number, got ${JSON.stringify(v)}`, { endpoint: stream, field });
}

/** A scanned price member: rupees to paise; null clears it, absent keeps the last (as `tick` reads them). */
function scannedPaise(st: Uint8Array, v: Float64Array, f: number, last: Paise | undefined): Paise | undefined {
  const s = st[f];
  return s === Slot.NUMBER ? Math.round(v[f]! * 100) : s === Slot.NULL ? undefined : last;
}

/** A scanned count member (volume, quantities, oi, ltt), as `scannedPaise` but taken as it is. */
function scannedCount(st: Uint8Array, v: Float64Array, f: number, last: number | undefined): number | undefined {
  const s = st[f];
  return s === Slot.NUMBER ? v[f]! : s === Slot.NULL ? undefined : last;
}

export interface FrameDecoderOptions {
  /** Name used in errors, e.g. `ws:prices`. */
  readonly stream?: string;
  /**
   * Resolves a bare instrument id (no exchange prefix on the frame) to the scrip code it was
   * subscribed as; undefined when unknown.
   */
  readonly resolveBareId?: (id: string) => string | undefined;
}

export class FrameDecoder {
  private readonly last = new Map<string, TickEvent>();
  /** Plain tick frames straight from their bytes (tick-scanner.ts); everything else takes the general path. */
  private readonly scanner = new TickScanner();
  private readonly stream: string;
  private readonly resolveBareId: (id: string) => string | undefined;
  /** Frames that failed to decode (each also reported through `onError`). */
  errors = 0;

  constructor(options: FrameDecoderOptions = {}) {
    this.stream = options.stream ?? 'ws';
    this.resolveBareId = options.resolveBareId ?? (() => undefined);
  }

  /**
   * Decodes one WebSocket message into frames, calling `emit` for each in order. Bad frames go to
   * `onError` and are skipped; the rest of the message is still decoded.
   */
  decode(raw: string | Buffer, emit: (f: StreamFrame) => void, onError: (e: DataException) => void): void {
    if (typeof raw !== 'string' && this.scanner.scan(raw)) {
      const t = this.scannedTick();
      if (t !== undefined) {
        emit({ kind: 'tick', tick: t });
        return;
      }
    }
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.indexOf('\n') < 0) {
      this.decodeOne(text, emit, onError);
      return;
    }
    for (const line of text.split('\n')) if (line.trim() !== '') this.decodeOne(line, emit, onError);
  }

  /** Forgets merged tick state (after a reconnect a full snapshot arrives again). */
  reset(): void {
    this.last.clear();
  }

  private decodeOne(text: string, emit: (f: StreamFrame) => void, onError: (e: DataException) => void): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
      // Double-encoded: a JSON string holding JSON (observed); may hold several lines itself.
      if (typeof v === 'string') {
        if (v.indexOf('\n') >= 0) {
          this.decode(v, emit, onError);
          return;
        }
        v = JSON.parse(v);
      }
    } catch {
      this.errors++;
      onError(new DataException(`${this.stream}: frame is not JSON: ${text.slice(0, 120)}`, { endpoint: this.stream, field: '(frame)' }));
      return;
    }
    if (Array.isArray(v)) {
      for (const item of v) this.dispatch(item, emit, onError);
      return;
    }
    this.dispatch(v, emit, onError);
  }

  private dispatch(v: unknown, emit: (f: StreamFrame) => void, onError: (e: DataException) => void): void {
    if (v === null || typeof v !== 'object') {
      this.errors++;
      onError(new DataException(`${this.stream}: frame is not an object: ${JSON.stringify(v)?.slice(0, 120)}`, { endpoint: this.stream, field: '(frame)' }));
      return;
    }
    const f = v as Obj;
    try {
      const mode = f['mode'];
      if (mode === 'ltp' || mode === 'quote' || mode === 'full') {
        emit({ kind: 'tick', tick: this.tick(f) });
        return;
      }
      if (mode === 'order_update' || mode === 'position_update') {
        const data = f['data'];
        if (data === null || typeof data !== 'object' || Array.isArray(data)) {
          throw new DataException(`${this.stream}: ${mode} frame without a data object`, { endpoint: this.stream, field: 'data' });
        }
        emit({ kind: mode, ts: count(f['timestamp'], 'timestamp', this.stream) ?? 0, data: data as Obj });
        return;
      }
      const type = f['type'] ?? f['event'];
      if (type === 'heartbeat' || type === 'ping' || type === 'pong') {
        const ts = count(f['timestamp'], 'timestamp', this.stream);
        emit(ts === undefined ? { kind: 'heartbeat' } : { kind: 'heartbeat', ts });
        return;
      }
      if (type === 'ack' || type === 'subscribed' || type === 'unsubscribed') {
        emit({ kind: 'ack', raw: f });
        return;
      }
      if (type === 'error' || f['status'] === 'error') {
        emit({ kind: 'error', message: typeof f['message'] === 'string' ? f['message'] : JSON.stringify(f), raw: f });
        return;
      }
      throw new DataException(`${this.stream}: unknown frame (mode ${JSON.stringify(mode)}, type ${JSON.stringify(type)})`, { endpoint: this.stream, field: 'mode' });
    } catch (e) {
      this.errors++;
      onError(e instanceof DataException ? e : new DataException(`${this.stream}: ${(e as Error).message}`, { endpoint: this.stream }));
    }
  }

  /**
   * The tick the scanner read, merged with the instrument's last state exactly as `tick` merges a
   * parsed frame (an absent member keeps the last value, null clears it); undefined when it cannot
   * be made (no ltp yet): the general path then reports it.
   */
  private scannedTick(): TickEvent | undefined {
    const sc = this.scanner;
    const st = sc.state;
    const v = sc.values;
    const instrument = sc.instrument;
    const prev = this.last.get(instrument);
    const ltp = st[TickField.LTP] === Slot.NUMBER ? Math.round(v[TickField.LTP]! * 100) : prev?.ltp;
    if (ltp === undefined) return undefined;
    const volume = scannedCount(st, v, TickField.VOLUME, prev?.volume);
    const bid = scannedPaise(st, v, TickField.BID, prev?.bid);
    const ask = scannedPaise(st, v, TickField.ASK, prev?.ask);
    const bidQty = scannedCount(st, v, TickField.BID_QTY, prev?.bidQty);
    const askQty = scannedCount(st, v, TickField.ASK_QTY, prev?.askQty);
    const open = scannedPaise(st, v, TickField.OPEN, prev?.open);
    const high = scannedPaise(st, v, TickField.HIGH, prev?.high);
    const low = scannedPaise(st, v, TickField.LOW, prev?.low);
    const close = scannedPaise(st, v, TickField.CLOSE, prev?.close);
    const oi = scannedCount(st, v, TickField.OI, prev?.oi);
    const ltt = scannedCount(st, v, TickField.LTT, prev?.ltt);
    const ts = sc.timestamp === sc.timestamp ? sc.timestamp : (ltt ?? prev?.ts ?? 0);
    // The same members in the same order as `tick` makes: one shape for every consumer.
    const t: TickEvent = { type: 'tick', ts, instrument, ltp, volume, bid, ask, bidQty, askQty, open, high, low, close, oi, ltt };
    this.last.set(instrument, t);
    return t;
  }

  private instrumentOf(f: Obj): string {
    const inst = f['instrument'] ?? f['instrument_token'] ?? f['token'];
    const id = typeof inst === 'number' ? String(inst) : inst;
    if (typeof id !== 'string' || id === '') throw new DataException(`${this.stream}: tick without instrument`, { endpoint: this.stream, field: 'instrument' });
    const colon = id.indexOf(':');
    if (colon > 0) return `${id.slice(0, colon)}_${id.slice(colon + 1)}`;
    if (id.indexOf('_') > 0) return id;
    const ex = f['exchange'] ?? f['segment'];
    if (typeof ex === 'string' && ex !== '') return `${ex}_${id}`;
    const code = this.resolveBareId(id);
    if (code === undefined) throw new DataException(`${this.stream}: tick for instrument ${id} with no exchange, not subscribed under a known prefix`, { endpoint: this.stream, field: 'instrument' });
    return code;
  }

  private tick(f: Obj): TickEvent {
    const s = this.stream;
    const instrument = this.instrumentOf(f);
    const d = f['data'];
    if (d === null || typeof d !== 'object') throw new DataException(`${s}: tick for ${instrument} without a data object`, { endpoint: s, field: 'data' });
    const data = d as Obj;
    const prev = this.last.get(instrument);
    // Numbers take the fast path inline; strings, blanks and bad values go through price()/count().
    const l = data['ltp'];
    const ltp = (typeof l === 'number' && l === l && l !== Infinity && l !== -Infinity ? Math.round(l * 100) : price(l, 'ltp', s)) ?? prev?.ltp;
    if (ltp === undefined) throw new DataException(`${s}: first tick for ${instrument} has no ltp`, { endpoint: s, field: 'data.ltp' });
    const rawVolume = data['volume'];
    const volume = rawVolume === undefined ? prev?.volume : typeof rawVolume === 'number' && Number.isFinite(rawVolume) ? rawVolume : count(rawVolume, 'volume', s);
    const rawBid = data['bid_price'];
    const bid = rawBid === undefined ? prev?.bid : typeof rawBid === 'number' && Number.isFinite(rawBid) ? Math.round(rawBid * 100) : price(rawBid, 'bid_price', s);
    const rawAsk = data['ask_price'];
    const ask = rawAsk === undefined ? prev?.ask : typeof rawAsk === 'number' && Number.isFinite(rawAsk) ? Math.round(rawAsk * 100) : price(rawAsk, 'ask_price', s);
    const rawBidQty = data['bid_qty'];
    const bidQty = rawBidQty === undefined ? prev?.bidQty : typeof rawBidQty === 'number' && Number.isFinite(rawBidQty) ? rawBidQty : count(rawBidQty, 'bid_qty', s);
    const rawAskQty = data['ask_qty'];
    const askQty = rawAskQty === undefined ? prev?.askQty : typeof rawAskQty === 'number' && Number.isFinite(rawAskQty) ? rawAskQty : count(rawAskQty, 'ask_qty', s);
    const rawOpen = data['open'];
    const open = rawOpen === undefined ? prev?.open : typeof rawOpen === 'number' && Number.isFinite(rawOpen) ? Math.round(rawOpen * 100) : price(rawOpen, 'open', s);
    const rawHigh = data['high'];
    const high = rawHigh === undefined ? prev?.high : typeof rawHigh === 'number' && Number.isFinite(rawHigh) ? Math.round(rawHigh * 100) : price(rawHigh, 'high', s);
    const rawLow = data['low'];
    const low = rawLow === undefined ? prev?.low : typeof rawLow === 'number' && Number.isFinite(rawLow) ? Math.round(rawLow * 100) : price(rawLow, 'low', s);
    const rawClose = data['close'];
    const close = rawClose === undefined ? prev?.close : typeof rawClose === 'number' && Number.isFinite(rawClose) ? Math.round(rawClose * 100) : price(rawClose, 'close', s);
    const rawOi = data['oi'];
    const oi = rawOi === undefined ? prev?.oi : typeof rawOi === 'number' && Number.isFinite(rawOi) ? rawOi : count(rawOi, 'oi', s);
    const rawLtt = data['ltt'];
    const ltt = rawLtt === undefined ? prev?.ltt : typeof rawLtt === 'number' && Number.isFinite(rawLtt) ? rawLtt : count(rawLtt, 'ltt', s);
    const stamp = f['timestamp'];
    const ts = (typeof stamp === 'number' ? stamp : count(stamp, 'timestamp', s)) ?? ltt ?? prev?.ts ?? 0;
    const t: TickEvent = { type: 'tick', ts, instrument, ltp, volume, bid, ask, bidQty, askQty, open, high, low, close, oi, ltt };
    this.last.set(instrument, t);
    return t;
  }
}
