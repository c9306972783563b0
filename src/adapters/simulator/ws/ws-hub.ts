/**
 * The simulator's WebSocket at `/ws`, sharing the HTTP server: handshake auth with the
 * `Authorization` header (a dead token is refused with 403), at most `maxConnections` per user
 * (refused with 429 and a JSON reason), at most `maxInstruments` per connection and
 * `maxPerFrame` a frame, one segment a frame (a mixed frame subscribes only the first segment,
 * as observed on the live service; the ack lists what was ignored). Market ticks, order updates
 * and position updates come from the venue; frames queued in one turn of the event loop go out
 * in one socket write (text-frames.ts). Faults: drop (terminate all), stall (send nothing, answer
 * no pings), double-encoded frames, newline batches, changed-fields-only ticks, terse order updates.
 *
 * A client that reads slower than the market ticks is conflated, as a quote feed is: once more
 * than `conflateBytes` wait unsent on its socket, its ticks are held back as the latest frame per
 * instrument and sent when the socket drains, so it catches up to the current state instead of
 * replaying a growing backlog (and the simulator's memory stays bounded by instruments, not by
 * how far behind the client is). Acks, errors, heartbeats and order and position updates are
 * never held back or dropped; past `maxBufferedBytes` unsent the connection is closed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/log.js';
import type { TokenRegistry } from '../auth/token-registry.js';
import type { FaultState } from '../control/faults.js';
import type { SimEvent } from '../matching/types.js';
import { describeIssue } from '../server/validate.js';
import type { MarketTick, SimVenue } from '../server/venue.js';
import {
  ackFrame,
  clientFrameSchema,
  errorFrame,
  heartbeatFrame,
  orderUpdateFrame,
  positionUpdateFrame,
  scripToWsKey,
  StreamMode,
  tickData,
  tickFrame,
  tickFrameText,
  TickMode,
  wsKeyToScrip,
} from './ws-messages.js';
import { textFrames } from './text-frames.js';

export interface WsHubOptions {
  readonly path?: string;
  readonly maxConnections?: number;
  readonly maxInstruments?: number;
  readonly maxPerFrame?: number;
  /** Wall ms between server heartbeats and pings; a connection silent for two is closed. */
  readonly heartbeatMs?: number;
  /** A connection whose unsent bytes exceed this is closed as a slow consumer. */
  readonly maxBufferedBytes?: number;
  /** Unsent bytes above which a connection's ticks are conflated (latest per instrument). Default 1 MiB. */
  readonly conflateBytes?: number;
  /**
   * Told after each write to a connection which frames it carried, in order: the instrument and
   * market time of each tick frame (undefined and 0 for any other frame). For measuring a
   * client's reaction time from the moment a tick left (the daemon bench); the arrays are reused
   * after the call returns.
   */
  readonly onFramesWritten?: (instruments: readonly (string | undefined)[], tickTs: readonly number[]) => void;
}

export interface WsHubDeps {
  readonly clock: Clock;
  readonly log: Logger;
  readonly tokens: TokenRegistry;
  readonly venue: SimVenue;
  readonly faults: FaultState;
}

/** Close codes the hub uses (4xxx: application-defined). */
export const WsCloseCode = { TOKEN_DEAD: 4003, SLOW_CONSUMER: 4008, SHUTDOWN: 1001, NO_PONG: 4009 } as const;

const TICK_MODES: readonly TickMode[] = [TickMode.LTP, TickMode.QUOTE, TickMode.FULL];

interface HeldTick {
  readonly frame: string;
  readonly ts: number;
}

class Connection {
  readonly subs = new Map<string, TickMode>();
  readonly streams = new Set<string>();
  queue: string[] = [];
  /** The instrument of each queued tick frame; undefined for any other frame (never conflated). */
  keys: (string | undefined)[] = [];
  /** The market time of each queued tick frame (0 for any other frame). */
  stamps: number[] = [];
  /** While the socket is backed up: the latest tick frame per instrument, sent once it drains. */
  readonly held = new Map<string, HeldTick>();
  drainHooked = false;
  queued = false;
  alive = true;
  /** Last tick data sent per instrument (only kept while the partial-ticks fault is on). */
  lastSent: Map<string, Record<string, number>> | undefined;

  constructor(
    readonly ws: WebSocket,
    readonly token: string,
  ) {}
}

export class WsHub {
  private readonly wss: WebSocketServer;
  private readonly conns = new Set<Connection>();
  private readonly byInstrument = new Map<string, Set<Connection>>();
  private readonly dirty: Connection[] = [];
  private flushScheduled = false;
  private readonly frameCache: (string | undefined)[] = [undefined, undefined, undefined];
  private readonly unsubscribers: (() => void)[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  readonly path: string;
  readonly maxConnections: number;
  readonly maxInstruments: number;
  readonly maxPerFrame: number;
  private readonly maxBuffered: number;
  private readonly conflateBytes: number;
  private readonly onFramesWritten: WsHubOptions['onFramesWritten'];
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => this.upgrade(req, socket, head);

  constructor(
    private readonly server: Server,
    private readonly deps: WsHubDeps,
    options: WsHubOptions = {},
  ) {
    this.path = options.path ?? '/ws';
    this.maxConnections = positiveInt(options.maxConnections ?? 3, 'maxConnections');
    this.maxInstruments = positiveInt(options.maxInstruments ?? 3000, 'maxInstruments');
    this.maxPerFrame = positiveInt(options.maxPerFrame ?? 1000, 'maxPerFrame');
    this.maxBuffered = positiveInt(options.maxBufferedBytes ?? 64 * 1024 * 1024, 'maxBufferedBytes');
    this.conflateBytes = positiveInt(options.conflateBytes ?? 1024 * 1024, 'conflateBytes');
    this.onFramesWritten = options.onFramesWritten;
    const heartbeatMs = positiveInt(options.heartbeatMs ?? 10_000, 'heartbeatMs');
    this.wss = new WebSocketServer({ noServer: true, autoPong: false, perMessageDeflate: false, maxPayload: 1024 * 1024 });
    server.on('upgrade', this.onUpgrade);
    this.unsubscribers.push(deps.venue.onTick((q) => this.onTick(q)));
    this.unsubscribers.push(deps.venue.onDropped((codes) => this.dropInstruments(codes)));
    this.unsubscribers.push(deps.venue.onEvent((e) => this.onVenueEvent(e)));
    this.unsubscribers.push(deps.tokens.onKilled((tokens, reason) => this.closeTokens(tokens, `access token ${reason}`)));
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  /** The drop fault: every connection goes away abruptly (no close frame). */
  dropAll(): number {
    const n = this.conns.size;
    for (const c of [...this.conns]) c.ws.terminate();
    return n;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.server.off('upgrade', this.onUpgrade);
    for (const u of this.unsubscribers) u();
    for (const c of [...this.conns]) c.ws.close(WsCloseCode.SHUTDOWN, 'simulator shutting down');
    for (const c of [...this.conns]) c.ws.terminate();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // The socket is ours from the 'upgrade' event: without a listener, a client that dies while
    // being refused (a killed process resets the connection) would throw an unhandled 'error'
    // and take the whole simulator down.
    socket.on('error', (err) => this.deps.log.debug({ err }, 'ws handshake socket error'));
    const url = req.url ?? '';
    if (url.split('?')[0] !== this.path) return refuse(socket, 404, { status: 'error', message: `no WebSocket at ${url}; use ${this.path}`, error_type: 'NotFoundException', error_code: 'NotFoundException' });
    const header = req.headers['authorization'];
    const check = this.deps.tokens.check(Array.isArray(header) ? header[0] : header);
    if (!check.ok) return refuse(socket, 403, { status: 'error', message: check.message, error_type: 'TokenException', error_code: 'TokenException' });
    if (this.conns.size >= this.maxConnections) {
      return refuse(socket, 429, {
        status: 'error',
        message: `WebSocket connection limit reached: at most ${this.maxConnections} active connections per user; close one first`,
        error_type: 'UserException',
        error_code: 'UserException',
      });
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, check.record.token, check.record.expiresAt));
  }

  private accept(ws: WebSocket, token: string, expiresAt: number): void {
    const c = new Connection(ws, token);
    this.conns.add(c);
    // A stream lives no longer than the token it was opened with (24 h, spec 3.2).
    const expiry = this.deps.clock.setTimeout(() => ws.close(WsCloseCode.TOKEN_DEAD, 'access token expired'), expiresAt - this.deps.clock.now());
    ws.once('close', () => expiry.cancel());
    ws.on('message', (data, isBinary) => this.onMessage(c, data, isBinary));
    ws.on('ping', (data) => {
      if (!this.deps.faults.wsStall) ws.pong(data);
    });
    ws.on('pong', () => (c.alive = true));
    ws.on('close', () => this.drop(c));
    ws.on('error', (err) => this.deps.log.debug({ err }, 'ws connection error'));
  }

  private drop(c: Connection): void {
    if (!this.conns.delete(c)) return;
    for (const code of c.subs.keys()) this.unfollow(c, code);
    c.subs.clear();
    c.queue = [];
    c.keys = [];
    c.stamps = [];
    c.held.clear();
  }

  private onMessage(c: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) return this.send(c, errorFrame('binary frames are not supported: send JSON text'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
      // Some clients double-encode too: accept a JSON string holding JSON.
      if (typeof parsed === 'string') parsed = JSON.parse(parsed);
    } catch {
      return this.send(c, errorFrame('frame is not valid JSON'));
    }
    const r = clientFrameSchema.safeParse(parsed);
    if (!r.success) return this.send(c, errorFrame(describeIssue(r.error, 'frame', parsed)));
    const f = r.data;
    if (f.mode === StreamMode.ORDER_UPDATE || f.mode === StreamMode.POSITION_UPDATE) {
      if (f.action === 'subscribe') c.streams.add(f.mode);
      else c.streams.delete(f.mode);
      return this.send(c, ackFrame(f.action, f.mode, []));
    }
    if (!('instruments' in f)) return;
    if (f.instruments.length > this.maxPerFrame) {
      return this.send(c, errorFrame(`instruments: at most ${this.maxPerFrame} instruments per frame, got ${f.instruments.length}`, { action: f.action, stream: f.mode }));
    }
    const first = f.instruments[0]!;
    const segment = first.slice(0, first.indexOf(':'));
    const taken = f.instruments.filter((k) => k.startsWith(`${segment}:`));
    const ignored = f.instruments.filter((k) => !k.startsWith(`${segment}:`));
    const codes = taken.map(wsKeyToScrip);
    if (f.action === 'unsubscribe') {
      for (const code of codes) {
        if (c.subs.delete(code)) this.unfollow(c, code);
      }
      return this.send(c, ackFrame('unsubscribe', f.mode, taken, ignoreNote(ignored)));
    }
    for (const code of codes) {
      if (!this.deps.venue.instrument(code)) return this.send(c, errorFrame(`instruments: ${scripToWsKey(code)} is not a known instrument`, { action: f.action, stream: f.mode }));
    }
    const fresh = codes.filter((code) => !c.subs.has(code)).length;
    if (c.subs.size + fresh > this.maxInstruments) {
      return this.send(
        c,
        errorFrame(`subscription limit: at most ${this.maxInstruments} instruments per connection (subscribed ${c.subs.size}, asked ${fresh} more)`, {
          action: f.action,
          stream: f.mode,
        }),
      );
    }
    for (const code of codes) {
      if (!c.subs.has(code)) this.follow(c, code);
      c.subs.set(code, f.mode);
    }
    this.send(c, ackFrame('subscribe', f.mode, taken, ignoreNote(ignored)));
    // A fresh subscriber gets the current state at once rather than waiting for the next move.
    for (const code of codes) {
      const q = this.deps.venue.lastTick(code);
      if (q) this.send(c, this.tickFor(c, f.mode, q), this.deps.faults.wsPartial ? undefined : code, q.ts);
    }
  }

  private follow(c: Connection, code: string): void {
    let set = this.byInstrument.get(code);
    if (!set) {
      set = new Set();
      this.byInstrument.set(code, set);
    }
    set.add(c);
  }

  private unfollow(c: Connection, code: string): void {
    const set = this.byInstrument.get(code);
    if (!set) return;
    set.delete(c);
    c.lastSent?.delete(code);
    if (set.size === 0) {
      this.byInstrument.delete(code);
    }
  }

  /**
   * Ends every subscription to instruments the market stopped quoting (expired contracts): no more
   * ticks come for them, held ticks are discarded, and the slots count no more toward the
   * per-connection limit. The spec says nothing of what the live service sends then; the
   * simulator sends nothing (a later subscribe to the code is refused as unknown).
   */
  private dropInstruments(codes: readonly string[]): void {
    for (const code of codes) {
      const set = this.byInstrument.get(code);
      if (!set) continue;
      for (const c of [...set]) {
        c.subs.delete(code);
        c.held.delete(code);
        this.unfollow(c, code);
      }
    }
  }

  private onTick(q: MarketTick): void {
    const set = this.byInstrument.get(q.instrument);
    if (!set) return;
    // One serialisation per mode per update, shared by every connection (one array for all ticks).
    const cache = this.frameCache;
    cache[0] = cache[1] = cache[2] = undefined;
    for (const c of set) {
      const mode = c.subs.get(q.instrument);
      if (mode === undefined) continue;
      const i = TICK_MODES.indexOf(mode);
      // Changed-fields-only frames build on each other: those are never conflated.
      if (this.deps.faults.wsPartial) this.send(c, this.tickFor(c, mode, q), undefined, q.ts);
      else this.send(c, (cache[i] ??= this.tickFor(c, mode, q)), q.instrument, q.ts);
    }
  }

  private tickFor(c: Connection, mode: TickMode, q: MarketTick): string {
    if (!this.deps.faults.wsPartial) {
      c.lastSent = undefined;
      return tickFrameText(mode, q, mode === TickMode.FULL ? this.deps.venue.bookTotals(q.instrument) : undefined);
    }
    const data = tickData(mode, q, () => this.deps.venue.quote(q.instrument));
    c.lastSent ??= new Map();
    const prev = c.lastSent.get(q.instrument);
    c.lastSent.set(q.instrument, data);
    if (!prev) return tickFrame(mode, q, data);
    const changed: Record<string, number> = {};
    for (const [k, v] of Object.entries(data)) if (prev[k] !== v) changed[k] = v;
    return tickFrame(mode, q, changed);
  }

  private onVenueEvent(e: SimEvent): void {
    let frame: string | undefined;
    let stream: string;
    if (e.type === 'order') {
      stream = StreamMode.ORDER_UPDATE;
    } else if (e.type === 'position') {
      stream = StreamMode.POSITION_UPDATE;
    } else return;
    for (const c of this.conns) {
      if (!c.streams.has(stream)) continue;
      frame ??= e.type === 'order' ? orderUpdateFrame(e.ts, e.order, this.deps.faults.wsTerseOrders) : positionUpdateFrame(e.ts, e.position);
      this.send(c, frame);
    }
  }

  /** Queues `frame` for `c`; `instrument` marks a tick frame, which may be conflated; `ts` is a tick's market time. */
  private send(c: Connection, frame: string, instrument?: string, ts = 0): void {
    c.queue.push(frame);
    c.keys.push(instrument);
    c.stamps.push(ts);
    this.markDirty(c);
  }

  private markDirty(c: Connection): void {
    if (!c.queued) {
      c.queued = true;
      this.dirty.push(c);
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const f = this.deps.faults;
    const conns = this.dirty.splice(0);
    for (const c of conns) {
      c.queued = false;
      let frames = c.queue;
      let keys = c.keys;
      let stamps = c.stamps;
      c.queue = [];
      c.keys = [];
      c.stamps = [];
      if (f.wsStall || c.ws.readyState !== c.ws.OPEN) continue;
      const unsent = c.ws.bufferedAmount;
      if (unsent > this.maxBuffered) {
        c.ws.close(WsCloseCode.SLOW_CONSUMER, 'slow consumer: too many unsent messages');
        continue;
      }
      if (unsent > this.conflateBytes) {
        frames = this.holdTicks(c, frames, keys, stamps);
        // What is left to send now: none of it is a tick.
        keys = frames.map(() => undefined);
        stamps = frames.map(() => 0);
      } else if (c.held.size > 0) {
        // Drained: the latest state held back first, then what came since.
        const held = [...c.held];
        c.held.clear();
        frames = [...held.map(([, h]) => h.frame), ...frames];
        keys = [...held.map(([k]) => k), ...keys];
        stamps = [...held.map(([, h]) => h.ts), ...stamps];
      }
      // A drain after the held ticks went out with newer ones leaves nothing to send.
      if (frames.length === 0) continue;
      const encode = f.wsDoubleEncode ? (s: string) => JSON.stringify(s) : (s: string) => s;
      if (f.wsBatch) {
        c.ws.send(encode(frames.join('\n')));
      } else {
        // One write of every frame (text-frames.ts), straight to the socket: the same bytes
        // `ws.send` would write, in the same order with anything it sends (this server has no
        // compression, so ws never holds a frame back), and counted in `bufferedAmount` alike.
        const sock = (c.ws as unknown as { _socket?: { write(b: Buffer): boolean } })._socket;
        const texts = f.wsDoubleEncode ? frames.map(encode) : frames;
        if (sock) sock.write(textFrames(texts));
        else for (const fr of texts) c.ws.send(fr);
      }
      this.onFramesWritten?.(keys, stamps);
    }
  }

  /** Keeps the tick frames of `frames` as the latest per instrument until `c` drains; returns the rest. */
  private holdTicks(c: Connection, frames: string[], keys: (string | undefined)[], stamps: number[]): string[] {
    const rest: string[] = [];
    for (let k = 0; k < frames.length; k++) {
      const key = keys[k];
      if (key === undefined) rest.push(frames[k]!);
      else c.held.set(key, { frame: frames[k]!, ts: stamps[k]! });
    }
    const sock = (c.ws as unknown as { _socket?: { once(event: 'drain', fn: () => void): void } })._socket;
    if (c.held.size > 0 && !c.drainHooked && sock) {
      c.drainHooked = true;
      sock.once('drain', () => {
        c.drainHooked = false;
        if (this.conns.has(c)) this.markDirty(c);
      });
    }
    return rest;
  }

  private closeTokens(tokens: readonly string[], reason: string): void {
    const dead = new Set(tokens);
    for (const c of [...this.conns]) if (dead.has(c.token)) c.ws.close(WsCloseCode.TOKEN_DEAD, reason);
  }

  private beat(): void {
    if (this.deps.faults.wsStall) return;
    const frame = heartbeatFrame(this.deps.clock.now());
    for (const c of [...this.conns]) {
      if (!c.alive) {
        c.ws.close(WsCloseCode.NO_PONG, 'no pong within two heartbeat intervals');
        continue;
      }
      c.alive = false;
      c.ws.ping();
      this.send(c, frame);
    }
  }
}

function ignoreNote(ignored: readonly string[]): Record<string, unknown> {
  return ignored.length === 0 ? {} : { ignored, message: 'one segment per frame: only instruments of the first segment were taken' };
}

function refuse(socket: Duplex, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  const reason = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Too Many Requests';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

function positiveInt(v: number, name: string): number {
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`WsHub: ${name} must be a positive integer, got ${v}`);
  return v;
}
