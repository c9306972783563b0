/**
 * Everything needed to talk to one broker account, built from one config: the REST transport
 * (limits, token, retries), the typed client, the token manager, and the WebSocket streams. The
 * same code serves the live service and the simulator; only the URLs differ.
 *
 *   const broker = createBroker(loadBrokerConfig(), { clock: new WallClock(), logger });
 *   await broker.client.funds();
 *   broker.marketData().subscribe(['NSE_2885']); broker.marketData().ticks$.subscribe(...)
 */
import type { Clock } from '../../core/clock.js';
import { WallClock } from '../../core/clock.js';
import { nseCalendar, type MarketCalendar } from '../../core/calendar.js';
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/silent-log.js';
import { ConfigError } from '../../core/errors.js';
import { BrokerClient } from './client.js';
import type { BrokerConfig } from './config.js';
import { BrokerHttp } from './http.js';
import { createHash } from 'node:crypto';
import { releaseSharedRateLimiters, sharedRateLimiters, type RateLimiters, type SharedBudget } from './rate-limiter.js';
import { RedisRateBudget } from '../redis/limiter.js';
import { TokenManager } from './token-manager.js';
import type { TokenStore } from './token-store.js';
import { openTokenStore, type SharedSessionOptions } from './token-store-open.js';
import { MarketDataStream } from './ws/market-data.js';
import { OrderUpdateStream, type OrderUpdatesOptions } from './ws/order-updates.js';
import type { SocketConnection, SocketStats } from './ws/resilient-socket.js';

export interface BrokerOptions {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Default: the process-wide limiters for this base URL (every client shares one budget). */
  readonly limiters?: RateLimiters;
  /** Cross-process budget (src/adapters/redis/limiter.ts); used when limiters are created here. */
  readonly sharedBudget?: SharedBudget;
  /** Whether the market is open now (the stall detector acts only then). Default: the NSE calendar. */
  readonly marketOpen?: (now: number) => boolean;
  readonly calendar?: MarketCalendar;
  /** Renew generated tokens on a timer (default true). */
  readonly autoRenew?: boolean;
  readonly random?: () => number;
  /**
   * Share the access token, throttle and refused codes with every tarang process of the account
   * (a file in `stateDir`, or Redis): the CLI, the daemon and backtest downloads set it. Without it
   * (and without `tokenStore`) the session is this process's own.
   */
  readonly sharedSession?: SharedSessionOptions;
  /** A session store to use as is (tests); not closed by the broker. */
  readonly tokenStore?: TokenStore;
  /** The wall clock (TOTP codes, the shared store's times). Default: the real one. */
  readonly wallClock?: Clock;
}

export class Broker {
  readonly http: BrokerHttp;
  readonly client: BrokerClient;
  readonly tokens: TokenManager;
  readonly clock: Clock;
  readonly logger: Logger;
  private market: MarketDataStream | undefined;
  private orders: OrderUpdateStream | undefined;
  private readonly marketOpen: (now: number) => boolean;
  /** Set when this broker created the process-wide limiters with a Redis budget: it closes them. */
  private ownedLimiters: RateLimiters | undefined;
  /** The shared session store this broker opened (it closes it). */
  private ownedStore: TokenStore | undefined;

  constructor(
    readonly config: BrokerConfig,
    options: BrokerOptions = {},
  ) {
    this.clock = options.clock ?? new WallClock();
    this.logger = options.logger ?? silentLogger();
    let limiters = options.limiters;
    if (!limiters) {
      // With a Redis URL the budget is shared across processes, keyed by account (hashed, so no
      // credential ends up in a Redis key).
      const account = createHash('sha256').update(`${config.baseUrl}|${config.apiKey ?? config.accessToken ?? ''}`).digest('hex').slice(0, 16);
      const shared = options.sharedBudget ?? (config.redisUrl ? new RedisRateBudget({ url: config.redisUrl, account, clock: this.clock, overrides: config.rateLimits }) : undefined);
      limiters = sharedRateLimiters(this.clock, config.baseUrl, config.rateLimits, shared, config.orderRate.perSegment);
      if (shared && !options.sharedBudget) this.ownedLimiters = limiters;
    }
    this.http = new BrokerHttp({ config, clock: this.clock, logger: this.logger, limiters, ...(options.random ? { random: options.random } : {}) });
    const wallClock = options.wallClock ?? new WallClock();
    const calendar = options.calendar ?? nseCalendar();
    let store = options.tokenStore;
    if (!store && options.sharedSession) store = this.ownedStore = openTokenStore(config, options.sharedSession, wallClock);
    this.tokens = new TokenManager({
      config,
      http: this.http,
      clock: this.clock,
      logger: this.logger,
      autoRenew: options.autoRenew ?? true,
      wallClock,
      calendar,
      ...(store ? { store } : {}),
    });
    this.http.setTokenSource(this.tokens);
    this.client = new BrokerClient({ http: this.http, logger: this.logger, algoIds: config.algoIds });
    this.marketOpen = options.marketOpen ?? ((now) => calendar.isOpen(now));
  }

  get limiters(): RateLimiters {
    return this.http.limiters;
  }

  /** Connections the market data stream may use: one is left for order updates on a shared host. */
  private marketConnections(): number {
    const ws = this.config.ws;
    return this.config.orderWsUrl === this.config.wsUrl ? Math.max(1, ws.maxConnections - 1) : ws.maxConnections;
  }

  /** How every stream of this broker connects to `url` and stays up (config.ws, shared clock, tokens). */
  private socketConnection(url: string): SocketConnection {
    const ws = this.config.ws;
    return {
      url,
      clock: this.clock,
      logger: this.logger,
      tokens: this.tokens,
      pingIntervalMs: ws.pingIntervalMs,
      stallMs: ws.stallMs,
      reconnectBaseMs: ws.reconnectBaseMs,
      reconnectMaxMs: ws.reconnectMaxMs,
      handshakeTimeoutMs: ws.handshakeTimeoutMs,
      ...(this.config.localAddress ? { localAddress: this.config.localAddress } : {}),
    };
  }

  /** The market data stream (created on first use; connections open as instruments are subscribed). */
  marketData(): MarketDataStream {
    if (!this.market) {
      const ws = this.config.ws;
      this.market = new MarketDataStream({
        ...this.socketConnection(this.requireUrl(this.config.wsUrl, 'wsUrl (TARANG_WS_URL)')),
        maxConnections: this.marketConnections(),
        maxInstrumentsPerConnection: ws.maxInstrumentsPerConnection,
        maxInstrumentsPerFrame: ws.maxInstrumentsPerFrame,
        expectFrames: () => this.marketOpen(this.clock.now()),
      });
    }
    return this.market;
  }

  /** The order/position update stream (started on first call). */
  orderUpdates(io: Pick<OrderUpdatesOptions, 'fetchOrders' | 'fetchPositions' | 'resolveOrderId'>): OrderUpdateStream {
    if (!this.orders) {
      const ws = this.config.ws;
      this.orders = new OrderUpdateStream({
        ...this.socketConnection(this.requireUrl(this.config.orderWsUrl, 'orderWsUrl (TARANG_ORDER_WS_URL) or wsUrl (TARANG_WS_URL)')),
        positionPollMs: ws.positionPollMs,
        ...io,
      });
      this.orders.start();
    }
    return this.orders;
  }

  /**
   * Each WebSocket stream as health shows it: the market-data shards (`ws:prices#<n>`, those
   * opened so far) and the order-update stream (`ws:orders`, once started).
   */
  streams(): StreamStatus[] {
    const out: StreamStatus[] = [];
    this.market?.stats().shards.forEach((s, i) => out.push(streamStatus(`ws:prices#${i}`, s.connected, s)));
    if (this.orders) out.push(streamStatus('ws:orders', this.orders.connected, this.orders.stats().socket));
    return out;
  }

  private requireUrl(url: string | undefined, what: string): string {
    if (!url) throw new ConfigError(`the WebSocket streams need ${what} in the broker config`, { key: what });
    return url;
  }

  async close(): Promise<void> {
    this.tokens.close();
    await Promise.all([this.market?.stop(), this.orders?.stop()]);
    await this.ownedStore?.close();
    await this.http.close();
    if (this.ownedLimiters) {
      releaseSharedRateLimiters(this.clock, this.config.baseUrl, this.ownedLimiters);
      await this.ownedLimiters.close();
    }
  }
}

export function createBroker(config: BrokerConfig, options: BrokerOptions = {}): Broker {
  return new Broker(config, options);
}

/** One WebSocket stream's state: connected, in a stall incident, when its last frame came (clock ms; undefined before the first). */
export interface StreamStatus {
  readonly name: string;
  readonly connected: boolean;
  readonly stalled: boolean;
  readonly lastFrameAt: number | undefined;
  readonly drops: number;
  readonly stalls: number;
}

function streamStatus(name: string, connected: boolean, s: SocketStats): StreamStatus {
  return { name, connected, stalled: s.stalled, lastFrameAt: s.lastFrameAt > 0 ? s.lastFrameAt : undefined, drops: s.drops, stalls: s.stalls };
}
