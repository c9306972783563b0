/**
 * Market data over WebSocket as an RxJS Observable of TickEvents. Subscriptions are sharded across
 * up to 3 connections of at most 3000 instruments each (spec 6.2), and sent as one frame per
 * segment prefix of at most 1000 instruments (wire-gaps: a mixed frame only delivers its first
 * segment). Every connection re-sends its whole subscription after each reconnect, and resets the
 * merged tick state (partial frames resume from a fresh snapshot).
 *
 * Reads and bursts. A socket read carries many frames (a burst of a whole market slot), and they
 * are decoded one after another in the read's callback, each tick handled to the end (strategies,
 * orders) before the next is decoded. An order's HTTP write is started from promise callbacks, which
 * run only once that callback returns: so a tick that made an order early in a burst waited for the
 * decode of the whole rest of the read. `yieldToWrites()` (the consumer calls it when a tick made an
 * order) parks the frames still to come and decodes them on the next turn of the event loop, after
 * the order has left, and stops reading the sockets until they are: what is parked is at most what
 * one read carried, and unread data waits in the kernel as before (the broker conflates a slow
 * reader). Frames are parked, never dropped or reordered; each keeps when its read arrived
 * (`arrivedAt`), so latency measured from it includes the wait.
 */
import { Subject, type Observable } from 'rxjs';
import type { ConnectionCause, TickEvent } from '../../../core/events.js';
import { parseScripCode } from '../../../core/instruments.js';
import { InputException, type DataException } from '../errors.js';
import { FrameDecoder, type StreamFrame, type TickMode } from './frame-decoder.js';
import { ResilientSocket, socketConnection, type SocketConnection, type SocketStats } from './resilient-socket.js';

export interface MarketDataOptions extends SocketConnection {
  readonly maxConnections: number;
  readonly maxInstrumentsPerConnection: number;
  readonly maxInstrumentsPerFrame: number;
  readonly expectFrames: () => boolean;
  readonly onState?: (shard: number, connected: boolean, detail: string, cause: ConnectionCause) => void;
}

/** One shard's connection change. */
export interface ShardConnection {
  readonly shard: number;
  readonly connected: boolean;
  readonly cause: ConnectionCause;
  readonly detail: string;
  readonly ts: number;
}

interface Shard {
  readonly index: number;
  readonly socket: ResilientSocket;
  /** scrip code -> mode */
  readonly codes: Map<string, TickMode>;
  readonly decoder: FrameDecoder;
  readonly emit: (f: StreamFrame) => void;
  readonly onError: (e: DataException) => void;
}

/** A frame read but not decoded yet (see `yieldToWrites`), with when its read arrived. */
interface ParkedFrame {
  readonly shard: Shard;
  readonly data: Buffer;
  readonly arrivedAt: number;
}

/** Groups `(code, mode)` into subscribe frames: one per (prefix, mode), at most `max` each. */
export function subscriptionFrames(action: 'subscribe' | 'unsubscribe', entries: Iterable<[string, TickMode]>, max: number): Array<{ action: string; mode: TickMode; instruments: string[] }> {
  const groups = new Map<string, { mode: TickMode; keys: string[] }>();
  for (const [code, mode] of entries) {
    const sep = code.indexOf('_');
    const prefix = code.slice(0, sep);
    const key = `${prefix}|${mode}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { mode, keys: [] }));
    g.keys.push(`${prefix}:${code.slice(sep + 1)}`);
  }
  const frames: Array<{ action: string; mode: TickMode; instruments: string[] }> = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.keys.length; i += max) frames.push({ action, mode: g.mode, instruments: g.keys.slice(i, i + max) });
  }
  return frames;
}

export class MarketDataStream {
  private readonly subject = new Subject<TickEvent>();
  private readonly shards: Shard[] = [];
  private readonly shardOf = new Map<string, Shard>();
  /** Bare security id -> scrip code, for frames that carry no exchange. */
  private readonly bareIds = new Map<string, string>();
  private decodeErrors = 0;
  private stopped = false;
  /** performance.now() when the read carrying the frame being decoded arrived. */
  private arrival = 0;
  /** The arrival of the read whose frames are being handed over now; cleared once its callback returns. */
  private readAt: number | undefined;
  private readonly endRead = (): void => {
    this.readAt = undefined;
  };
  /** Frames of a burst that wait for writes started by an earlier tick (`yieldToWrites`), in order. */
  private parked: (ParkedFrame | undefined)[] = [];
  private parkedHead = 0;
  private yielding = false;
  private drainScheduled = false;
  private readonly drainParked = (): void => this.drain();

  private readonly connectionSubject = new Subject<ShardConnection>();

  /** Ticks of every subscribed instrument, hot. */
  readonly ticks$: Observable<TickEvent> = this.subject.asObservable();
  /** Each shard's connection changes with their cause, hot (health and alerts follow them). */
  readonly connections$: Observable<ShardConnection> = this.connectionSubject.asObservable();

  constructor(private readonly o: MarketDataOptions) {}

  /**
   * When the socket read that carried the tick being emitted arrived (performance.now() ms): the
   * start of a tick-to-order measurement, so that a tick's wait behind the rest of its burst counts.
   */
  get arrivedAt(): number {
    return this.arrival;
  }

  /**
   * Asks that frames still to come in this burst be decoded on a later turn of the event loop, so
   * that writes started by the tick being handled (an order, sent from promise callbacks) leave
   * first. Called by the consumer from inside its tick handler; costs nothing when not called.
   */
  yieldToWrites(): void {
    if (!this.yielding) {
      this.yielding = true;
      // No more reads until the parked frames are decoded: they stay bounded by one read.
      for (const s of this.shards) s.socket.reading(false);
    }
    this.scheduleDrain();
  }

  get capacity(): number {
    return this.o.maxConnections * this.o.maxInstrumentsPerConnection;
  }

  get subscribed(): number {
    return this.shardOf.size;
  }

  /** Connections in use (each holds at most maxInstrumentsPerConnection instruments). */
  get connections(): number {
    return this.shards.length;
  }

  stats(): { shards: Array<{ instruments: number; connected: boolean } & SocketStats>; decodeErrors: number } {
    return {
      shards: this.shards.map((s) => ({ instruments: s.codes.size, connected: s.socket.connected, ...s.socket.stats })),
      decodeErrors: this.decodeErrors,
    };
  }

  /** Subscribes scrip codes (`NSE_2885`) in `mode`; already subscribed codes change mode. */
  subscribe(codes: readonly string[], mode: TickMode = 'full'): void {
    if (this.stopped) throw new InputException('market data stream is stopped', {});
    const bad = codes.filter((c) => !parseScripCode(c));
    if (bad.length) throw new InputException(`subscribe: not scrip codes like NSE_2885: ${bad.slice(0, 5).join(', ')}`, { field: 'codes' });
    const fresh = [...new Set(codes)].filter((c) => !this.shardOf.has(c));
    if (this.shardOf.size + fresh.length > this.capacity) {
      throw new InputException(
        `subscribe: ${this.shardOf.size + fresh.length} instruments exceed ${this.capacity} (${this.o.maxConnections} connections x ${this.o.maxInstrumentsPerConnection}, spec 6.2)`,
        { field: 'codes', requested: this.shardOf.size + fresh.length, capacity: this.capacity },
      );
    }
    const perShard = new Map<Shard, Array<[string, TickMode]>>();
    const add = (shard: Shard, code: string) => {
      shard.codes.set(code, mode);
      this.shardOf.set(code, shard);
      this.bareIds.set(code.slice(code.indexOf('_') + 1), code);
      let l = perShard.get(shard);
      if (!l) perShard.set(shard, (l = []));
      l.push([code, mode]);
    };
    for (const code of codes) {
      const existing = this.shardOf.get(code);
      if (existing && existing.codes.get(code) !== mode) add(existing, code);
    }
    for (const code of fresh) add(this.shardWithRoom(), code);
    for (const [shard, entries] of perShard) {
      if (!shard.socket.connected) continue; // sent by onOpen when it connects
      for (const f of subscriptionFrames('subscribe', entries, this.o.maxInstrumentsPerFrame)) shard.socket.send(f);
    }
  }

  unsubscribe(codes: readonly string[]): void {
    const perShard = new Map<Shard, Array<[string, TickMode]>>();
    for (const code of codes) {
      const shard = this.shardOf.get(code);
      if (!shard) continue;
      const mode = shard.codes.get(code)!;
      shard.codes.delete(code);
      this.shardOf.delete(code);
      let l = perShard.get(shard);
      if (!l) perShard.set(shard, (l = []));
      l.push([code, mode]);
    }
    for (const [shard, entries] of perShard) for (const f of subscriptionFrames('unsubscribe', entries, this.o.maxInstrumentsPerFrame)) shard.socket.send(f);
  }

  /** Drops every connection as a network failure would (tests, operators). */
  forceReconnect(reason = 'requested'): void {
    for (const s of this.shards) s.socket.forceReconnect(reason);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.parked = [];
    this.parkedHead = 0;
    await Promise.all(this.shards.map((s) => s.socket.stop()));
    this.subject.complete();
    this.connectionSubject.complete();
  }

  private shardWithRoom(): Shard {
    const s = this.shards.find((x) => x.codes.size < this.o.maxInstrumentsPerConnection);
    if (s) return s;
    const index = this.shards.length;
    const codes = new Map<string, TickMode>();
    const decoder = new FrameDecoder({ stream: `ws:prices#${index}`, resolveBareId: (id) => this.bareIds.get(id) });
    const emit = (f: StreamFrame) => {
      if (f.kind === 'tick') this.subject.next(f.tick);
      else if (f.kind === 'error') this.o.logger.warn({ shard: index, message: f.message }, 'market data stream reported an error');
    };
    const onError = (e: DataException) => {
      this.decodeErrors++;
      this.o.logger.warn({ shard: index, err: { code: e.code, message: e.message } }, 'market data frame skipped');
    };
    const socket = new ResilientSocket({
      name: `ws:prices#${index}`,
      ...socketConnection(this.o),
      expectFrames: () => codes.size > 0 && this.o.expectFrames(),
      onOpen: (send, reconnect) => {
        if (reconnect) {
          // Frames of the old connection still parked are decoded against the state they extend.
          this.drain(true);
          decoder.reset();
        }
        for (const f of subscriptionFrames('subscribe', codes, this.o.maxInstrumentsPerFrame)) send(f);
      },
      onMessage: (data) => this.onFrame(shard, data),
      onState: (connected, detail, cause) => {
        this.connectionSubject.next({ shard: index, connected, detail, cause, ts: this.o.clock.now() });
        this.o.onState?.(index, connected, detail, cause);
      },
    });
    const shard: Shard = { index, socket, codes, decoder, emit, onError };
    this.shards.push(shard);
    socket.start();
    return shard;
  }

  /** A frame off the socket: decoded now, or parked behind frames that wait for writes. */
  private onFrame(shard: Shard, data: Buffer): void {
    let at = this.readAt;
    if (at === undefined) {
      // The first frame of a read: every frame handed over before its callback returns came with it.
      at = this.readAt = performance.now();
      queueMicrotask(this.endRead);
    }
    if (this.yielding || this.parkedHead < this.parked.length) {
      this.parked.push({ shard, data, arrivedAt: at });
      this.scheduleDrain();
      return;
    }
    this.arrival = at;
    shard.decoder.decode(data, shard.emit, shard.onError);
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(this.drainParked);
  }

  /** Decodes parked frames in order until a tick yields again (or all of them: `all`). */
  private drain(all = false): void {
    this.drainScheduled = false;
    this.yielding = false;
    if (this.stopped) return;
    const parked = this.parked;
    try {
      while (this.parkedHead < parked.length && (all || !this.yielding)) {
        const p = parked[this.parkedHead]!;
        parked[this.parkedHead++] = undefined;
        this.arrival = p.arrivedAt;
        p.shard.decoder.decode(p.data, p.shard.emit, p.shard.onError);
      }
    } finally {
      // Even when a handler threw: the frames behind it still go, on the next turn.
      if (this.parkedHead >= parked.length) {
        this.parked = [];
        this.parkedHead = 0;
        if (!this.yielding) for (const s of this.shards) s.socket.reading(true);
      } else this.scheduleDrain();
    }
  }
}
