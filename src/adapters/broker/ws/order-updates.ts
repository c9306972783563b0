/**
 * Order and position updates over WebSocket as an RxJS Observable of VenueUpdates. After every
 * reconnect the order book and positions are read again over REST and published, so an update
 * missed while the stream was down is not lost (the engine merges duplicates monotonically). Position
 * updates fall back to polling `/portfolio/positions` while the stream sends none (they are
 * announced but may not exist on the live service).
 */
import { Subject, type Observable } from 'rxjs';
import type { TimerHandle } from '../../../core/clock.js';
import type { VenueOrderState, VenuePosition, VenueUpdate } from '../../execution/venue.js';
import type { DataException } from '../errors.js';
import { PositionSchema } from '../schemas/portfolio.js';
import { decode } from '../schemas/common.js';
import { orderStateFromUpdate, positionFromWire } from '../venue-codec.js';
import { FrameDecoder, type StreamFrame } from './frame-decoder.js';
import { ResilientSocket, socketConnection, type SocketConnection } from './resilient-socket.js';

export interface OrderUpdatesOptions extends SocketConnection {
  readonly positionPollMs: number;
  /**
   * When the stall detector acts (default: always). Order updates are sparse, so the stream counts
   * a pong as life (resilient-socket.ts `sparse`): silent means no frame and no pong answered.
   */
  readonly expectFrames?: () => boolean;
  /** REST reads used to resynchronise after a reconnect and to poll positions. */
  readonly fetchOrders: () => Promise<readonly VenueOrderState[]>;
  readonly fetchPositions: () => Promise<readonly VenuePosition[]>;
  /** Full id for a bare numeric id seen on the stream. */
  readonly resolveOrderId?: (raw: string) => string;
}

export class OrderUpdateStream {
  private readonly subject = new Subject<VenueUpdate>();
  private readonly socket: ResilientSocket;
  private readonly decoder = new FrameDecoder({ stream: 'ws:orders' });
  private pollTimer: TimerHandle | undefined;
  private lastPositionUpdate = -Infinity;
  private resyncs = 0;
  private polls = 0;
  /** A position read is in flight. */
  private polling = false;

  readonly updates$: Observable<VenueUpdate> = this.subject.asObservable();

  constructor(private readonly o: OrderUpdatesOptions) {
    this.socket = new ResilientSocket({
      name: 'ws:orders',
      ...socketConnection(o),
      expectFrames: o.expectFrames ?? (() => true),
      sparse: true,
      onOpen: (send, reconnect) => {
        send({ action: 'subscribe', mode: 'order_update' });
        send({ action: 'subscribe', mode: 'position_update' });
        // After a drop: recover what was missed. On the first connect: learn the state the
        // stream will update from (an order placed while the socket was opening is in the book).
        void this.resync(reconnect ? 'reconnect' : 'connect');
      },
      onMessage: (data) => this.decoder.decode(data, (f) => this.onFrame(f), (e) => this.onDecodeError(e)),
      onState: (connected, detail, cause) => this.subject.next({ kind: 'connection', connected, ts: o.clock.now(), detail, cause }),
    });
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** `resyncs` counts connects (first one included); `polls` counts position reads. */
  stats(): { resyncs: number; polls: number; socket: ResilientSocket['stats'] } {
    return { resyncs: this.resyncs, polls: this.polls, socket: this.socket.stats };
  }

  start(): void {
    this.socket.start();
    this.pollTimer = this.o.clock.setInterval(() => {
      if (this.o.clock.now() - this.lastPositionUpdate < this.o.positionPollMs) return;
      // One timed read at a time: a poll that comes due while the last is still waiting (a slow
      // broker, the rate limiter, a virtual clock moved over days at once) is skipped, not queued.
      // Queued reads would pile up without bound and hold every other non-trading call (the
      // order book among them) behind them in the limiter.
      if (this.polling) return;
      void this.pollPositions();
    }, this.o.positionPollMs);
  }

  forceReconnect(reason = 'requested'): void {
    this.socket.forceReconnect(reason);
  }

  /** Reads the order book and positions and publishes them (called after every connect). */
  async resync(reason = 'requested'): Promise<void> {
    this.resyncs++;
    this.o.logger.debug({ reason }, 'order stream resync');
    try {
      const orders = await this.o.fetchOrders();
      for (const order of orders) this.subject.next({ kind: 'order', order });
    } catch (e) {
      this.o.logger.error({ err: e }, 'order book resync after reconnect failed');
    }
    await this.pollPositions();
  }

  async stop(): Promise<void> {
    this.pollTimer?.cancel();
    await this.socket.stop();
    this.subject.complete();
  }

  private async pollPositions(): Promise<void> {
    this.polling = true;
    this.polls++;
    try {
      for (const position of await this.o.fetchPositions()) this.subject.next({ kind: 'position', position });
    } catch (e) {
      this.o.logger.warn({ err: e }, 'position poll failed');
    } finally {
      this.polling = false;
    }
  }

  private onFrame(f: StreamFrame): void {
    try {
      if (f.kind === 'order_update') {
        const order = orderStateFromUpdate(f.data, f.ts || this.o.clock.now(), this.o.resolveOrderId);
        this.subject.next({ kind: 'order', order });
      } else if (f.kind === 'position_update') {
        this.lastPositionUpdate = this.o.clock.now();
        const p = positionFromWire(decode(PositionSchema, f.data, 'ws:position_update', undefined, 'data'), f.ts || this.o.clock.now());
        if (p) this.subject.next({ kind: 'position', position: p });
      } else if (f.kind === 'error') {
        this.o.logger.warn({ message: f.message }, 'order stream reported an error');
      }
    } catch (e) {
      this.onDecodeError(e as DataException);
    }
  }

  private onDecodeError(e: DataException): void {
    this.o.logger.warn({ err: { code: e.code, message: e.message } }, 'order stream frame skipped');
  }
}
