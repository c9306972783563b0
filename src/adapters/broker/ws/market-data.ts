/**
 * Market data over WebSocket as an RxJS Observable of TickEvents. Subscriptions are sharded across
 * up to 3 connections of at most 3000 instruments each (spec 6.2), and sent as one frame per
 * segment prefix of at most 1000 instruments (wire-gaps: a mixed frame only delivers its first
 * segment). Every connection re-sends its whole subscription after each reconnect, and resets the
 * merged tick state (partial frames resume from a fresh snapshot).
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

  private readonly connectionSubject = new Subject<ShardConnection>();

  /** Ticks of every subscribed instrument, hot. */
  readonly ticks$: Observable<TickEvent> = this.subject.asObservable();
  /** Each shard's connection changes with their cause, hot (health and alerts follow them). */
  readonly connections$: Observable<ShardConnection> = this.connectionSubject.asObservable();

  constructor(private readonly o: MarketDataOptions) {}

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
        if (reconnect) decoder.reset();
        for (const f of subscriptionFrames('subscribe', codes, this.o.maxInstrumentsPerFrame)) send(f);
      },
      onMessage: (data) => decoder.decode(data, emit, onError),
      onState: (connected, detail, cause) => {
        this.connectionSubject.next({ shard: index, connected, detail, cause, ts: this.o.clock.now() });
        this.o.onState?.(index, connected, detail, cause);
      },
    });
    const shard: Shard = { index, socket, codes, decoder };
    this.shards.push(shard);
    socket.start();
    return shard;
  }
}
