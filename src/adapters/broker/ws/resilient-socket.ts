/**
 * One WebSocket connection that stays up: handshake auth (`Authorization` header, wire-gaps), a
 * ping every 30 s, reconnect with jittered exponential backoff after every drop, a token renewal
 * when the handshake is refused as unauthorised, and a stall detector that forces a reconnect
 * when no frame has arrived for `stallMs` while the market is open. Every timer runs on the Clock.
 * The owner re-sends its subscriptions from `onOpen`, which runs after every (re)connect.
 *
 * State changes reach the owner with a typed cause (ConnectionCause): `stalled` when the detector
 * dropped the socket, `dropped` for any other close, and `flowing` at the first frame after a
 * stall, so that a stream which stalls, reconnects and stalls again is one incident to its readers
 * (the reconnect alone does not end it). A sparse stream (order updates: quiet for hours is normal)
 * counts a pong as life and allows at least two ping intervals of silence, at any hour.
 */
import WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Clock, TimerHandle } from '../../../core/clock.js';
import type { ConnectionCause } from '../../../core/events.js';
import type { Logger } from '../../../core/log.js';
import type { TokenSource } from '../http.js';

/** Where a socket connects and how it is kept up: the settings a stream owner passes through as is. */
export interface SocketConnection {
  readonly url: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tokens: TokenSource;
  readonly pingIntervalMs: number;
  readonly stallMs: number;
  readonly reconnectBaseMs: number;
  readonly reconnectMaxMs: number;
  readonly handshakeTimeoutMs: number;
  readonly localAddress?: string;
}

/** Just the connection settings out of an owner's wider options (an absent localAddress stays absent). */
export function socketConnection(o: SocketConnection): SocketConnection {
  return {
    url: o.url,
    clock: o.clock,
    logger: o.logger,
    tokens: o.tokens,
    pingIntervalMs: o.pingIntervalMs,
    stallMs: o.stallMs,
    reconnectBaseMs: o.reconnectBaseMs,
    reconnectMaxMs: o.reconnectMaxMs,
    handshakeTimeoutMs: o.handshakeTimeoutMs,
    ...(o.localAddress ? { localAddress: o.localAddress } : {}),
  };
}

export interface ResilientSocketOptions extends SocketConnection {
  readonly name: string;
  /** Whether frames are expected now (market open); the stall detector only acts then. */
  readonly expectFrames: () => boolean;
  /** Called after every successful open, first and later ones; `reconnect` is true after a drop. */
  readonly onOpen: (send: (frame: unknown) => void, reconnect: boolean) => void;
  readonly onMessage: (data: Buffer) => void;
  readonly onState?: (connected: boolean, detail: string, cause: ConnectionCause) => void;
  readonly random?: () => number;
  /**
   * Frames are sparse (order updates): a pong counts as life, and the silence allowed is at least
   * two ping intervals. `expectFrames` still says when the detector acts.
   */
  readonly sparse?: boolean;
}

export interface SocketStats {
  connects: number;
  drops: number;
  stalls: number;
  frames: number;
  handshakeRefusals: number;
  /** Clock ms of the last frame (or pong, on a sparse stream); 0 before the first. */
  lastFrameAt: number;
  /** In a stall incident: dropped for silence and no frame since. */
  stalled: boolean;
}

export class ResilientSocket {
  private ws: WebSocket | undefined;
  private pingTimer: TimerHandle | undefined;
  private stallTimer: TimerHandle | undefined;
  private reconnectTimer: TimerHandle | undefined;
  private lastFrameAt = 0;
  private attempt = 0;
  private everOpened = false;
  private stopped = false;
  private token: string | undefined;
  /** Why the socket is being closed by us (the stall detector), read by the close handler. */
  private closingFor: ConnectionCause | undefined;
  readonly stats: SocketStats = { connects: 0, drops: 0, stalls: 0, frames: 0, handshakeRefusals: 0, lastFrameAt: 0, stalled: false };

  constructor(private readonly o: ResilientSocketOptions) {}

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.stopped = false;
    void this.open();
  }

  /** Sends a frame now if connected (subscriptions are also replayed by `onOpen` on reconnect). */
  send(frame: unknown): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    return true;
  }

  /**
   * Stops or restarts reading the socket (frames already read are still delivered). While the
   * reader holds frames back, unread data stays in the kernel, so a sender that conflates for a
   * slow reader still can. A new connection reads from the start.
   */
  reading(on: boolean): void {
    const ws = this.ws;
    if (ws?.readyState !== WebSocket.OPEN) return;
    if (on) ws.resume();
    else ws.pause();
  }

  /** Drops the connection as if the network failed (tests, stall handling). */
  forceReconnect(reason: string): void {
    this.o.logger.warn({ socket: this.o.name, reason }, 'forcing a WebSocket reconnect');
    this.ws?.terminate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.reconnectTimer?.cancel();
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.terminate();
      });
    }
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    let token: string;
    try {
      token = await this.o.tokens.token();
    } catch (e) {
      this.o.logger.error({ socket: this.o.name, err: e }, 'no token for the WebSocket handshake');
      this.scheduleReconnect('no token');
      return;
    }
    if (this.stopped) return;
    this.token = token;
    const ws = new WebSocket(this.o.url, {
      headers: { Authorization: token },
      handshakeTimeout: this.o.handshakeTimeoutMs,
      perMessageDeflate: false,
      ...(this.o.localAddress ? { localAddress: this.o.localAddress } : {}),
    });
    this.ws = ws;
    ws.on('open', () => {
      if (this.ws !== ws) return;
      const reconnect = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.stats.connects++;
      this.lastFrameAt = this.o.clock.now();
      this.startTimers(ws);
      this.o.logger.info({ socket: this.o.name, reconnect }, 'WebSocket connected');
      this.o.onState?.(true, reconnect ? 'reconnected' : 'connected', reconnect ? 'reconnected' : 'connected');
      this.o.onOpen((f) => ws.send(typeof f === 'string' ? f : JSON.stringify(f)), reconnect);
    });
    ws.on('message', (data: Buffer) => {
      this.alive();
      this.stats.frames++;
      this.o.onMessage(data);
    });
    ws.on('pong', () => {
      if (this.o.sparse && this.ws === ws) this.alive();
    });
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      this.stats.handshakeRefusals++;
      const status = res.statusCode ?? 0;
      this.o.logger.warn({ socket: this.o.name, status }, 'WebSocket handshake refused');
      res.resume();
      ws.terminate();
      if (status === 401 || status === 403 || status === 513) {
        // A dead token is refused at the handshake (wire-gaps): renew before the next try.
        const dead = this.token;
        if (dead !== undefined) this.o.tokens.renew(dead).catch((e: unknown) => this.o.logger.error({ socket: this.o.name, err: e }, 'token renewal for the WebSocket failed'));
      }
    });
    ws.on('error', (e) => {
      this.o.logger.warn({ socket: this.o.name, err: { message: e.message } }, 'WebSocket error');
    });
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.clearTimers();
      this.ws = undefined;
      if (this.stopped) return;
      this.stats.drops++;
      const cause = this.closingFor ?? 'dropped';
      this.closingFor = undefined;
      this.o.onState?.(false, cause === 'stalled' ? `stalled, closed (${code})` : `closed (${code})`, cause);
      this.scheduleReconnect(`closed (${code})`);
    });
  }

  private startTimers(ws: WebSocket): void {
    this.clearTimers();
    this.pingTimer = this.o.clock.setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }, this.o.pingIntervalMs);
    const stallMs = this.o.sparse ? Math.max(this.o.stallMs, 2 * this.o.pingIntervalMs) : this.o.stallMs;
    const every = Math.max(250, Math.floor(stallMs / 4));
    this.stallTimer = this.o.clock.setInterval(() => {
      if (ws.readyState !== WebSocket.OPEN || !this.o.expectFrames()) return;
      const silent = this.o.clock.now() - this.lastFrameAt;
      if (silent >= stallMs) {
        this.stats.stalls++;
        this.stats.stalled = true;
        this.closingFor = 'stalled';
        this.forceReconnect(this.o.sparse ? `no frame or pong for ${silent} ms` : `no frame for ${silent} ms while the market is open`);
      }
    }, every);
  }

  /** A frame (or a pong on a sparse stream) arrived: the first one after a stall ends the incident. */
  private alive(): void {
    this.lastFrameAt = this.o.clock.now();
    this.stats.lastFrameAt = this.lastFrameAt;
    if (!this.stats.stalled) return;
    this.stats.stalled = false;
    this.o.onState?.(true, 'frames flowing again after a stall', 'flowing');
  }

  private clearTimers(): void {
    this.pingTimer?.cancel();
    this.stallTimer?.cancel();
    this.pingTimer = undefined;
    this.stallTimer = undefined;
  }

  private scheduleReconnect(reason: string): void {
    if (this.stopped) return;
    this.attempt++;
    const exp = Math.min(this.o.reconnectMaxMs, this.o.reconnectBaseMs * 2 ** Math.min(this.attempt - 1, 16));
    // Half fixed, half jitter: never a thundering herd, never an immediate hammering loop.
    const delay = Math.round(exp / 2 + (exp / 2) * (this.o.random ?? Math.random)());
    this.o.logger.info({ socket: this.o.name, reason, attempt: this.attempt, delayMs: delay }, 'WebSocket reconnect scheduled');
    this.reconnectTimer?.cancel();
    this.reconnectTimer = this.o.clock.setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.open();
    }, delay);
  }
}
