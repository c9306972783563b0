/**
 * `startSimulator(options)`: the broker simulator as a real HTTP + WebSocket server on loopback
 * (issue 3), a thin shell around the matching engine, the market model and the data services.
 * One clock drives every time rule; by default it starts at 09:15 IST of the current (or last)
 * trading day and follows wall time at `speed`.
 */
import { z } from 'zod';
import type { AddressInfo } from 'node:net';
import { nseCalendar, type MarketCalendar } from '../../core/calendar.js';
import { VirtualClock, WallClock, type Clock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { createLogger, type Logger } from '../../core/log.js';
import { istDate } from '../../core/time.js';
import { makeCredentials, type SimCredentials } from './auth/credentials.js';
import { StaticIpWhitelist } from './auth/static-ip.js';
import { TokenRegistry } from './auth/token-registry.js';
import { TokenService } from './auth/token-service.js';
import { DEFAULT_LOCKOUT_POLICY, TotpLockout, type LockoutPolicy } from './auth/totp-lockout.js';
import { noFaults } from './control/faults.js';
import { PacedClock, fixedControl, pacedControl, virtualControl, type ClockControl } from './control/paced-clock.js';
import { RequestLog } from './control/request-log.js';
import { seededRandom } from './control/rng.js';
import { controlRoutes } from './control/routes.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { SegmentOrderWindow, retailAlgoRules, type RegisteredAlgoIds } from '../../risk/rules/retail-algo.js';
import type { CategoryLimit, RateCategory } from './limits/rate-category.js';
import { accountRoutes } from './server/account-routes.js';
import { buildApp } from './server/app.js';
import type { SimContext } from './server/context.js';
import { HeldCalls } from './server/held-calls.js';
import { marketRoutes } from './server/market-routes.js';
import { orderRoutes } from './server/order-routes.js';
import { portfolioRoutes } from './server/portfolio-routes.js';
import { smartRoutes } from './server/smart-routes.js';
import { assembleVenue, type VenueAssemblyOptions } from './server/venue-assembly.js';
import type { SimVenue } from './server/venue.js';
import { WsHub, type WsHubOptions } from './ws/ws-hub.js';
import { formatZodIssues } from '../../core/zod-issues.js';

const categoryLimit = z.object({ perSecond: z.number().int().positive(), perDay: z.number().int().positive().optional() }).strict();

const optionsSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(0),
    seed: z.number().int().default(1),
    start: z.number().int().optional(),
    speed: z.number().positive().finite().default(1),
    tsl: z.enum(['on', 'off']).default('off'),
    rateLimits: z.union([z.literal(false), z.object({ orders: categoryLimit, data: categoryLimit, quotes: categoryLimit, non_trading: categoryLimit }).partial()]).optional(),
    staticIps: z.object({ primary: z.string(), secondary: z.string() }).optional(),
    staticIpWeeklyRule: z.boolean().default(true),
    requestLogSize: z.number().int().positive().default(1000),
    tokenLifetimeMs: z.number().int().positive().optional(),
    retailAlgo: z
      .object({
        perSegment: z.number().int().positive().optional(),
        algoIds: z.object({ NSE: z.string().regex(/^\d+$/).optional(), BSE: z.string().regex(/^\d+$/).optional() }).strict().optional(),
      })
      .strict()
      .optional(),
  })
  .passthrough();

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Seeds the market, the universe and fault draws. Default 1. */
  readonly seed?: number;
  /** A clock to run on (tests pass a VirtualClock, which `POST /sim/clock` then moves). */
  readonly clock?: Clock;
  /** The wall clock TOTP codes are checked against (what an authenticator shows). Default: the real one. */
  readonly wallClock?: Clock;
  /** Market time at start, epoch ms (ignored with `clock`). Default 09:15 IST of the current or last trading day. */
  readonly start?: number;
  /** Market ms per wall ms (ignored with `clock`). Default 1. */
  readonly speed?: number;
  /** Trailing stop-loss on smart orders: `off` accepts and ignores it (as announced), `on` trails. */
  readonly tsl?: 'on' | 'off';
  /** Fixed credentials (anything absent is random). */
  readonly credentials?: Partial<SimCredentials>;
  /** Per-category budgets, or false to lift every limit (benchmarks). */
  readonly rateLimits?: Partial<Record<RateCategory, CategoryLimit>> | false;
  readonly staticIps?: { readonly primary: string; readonly secondary: string };
  /** Spec 5.7's one-change-per-week rule on `POST /sim/static-ip`. Default on. */
  readonly staticIpWeeklyRule?: boolean;
  readonly lockout?: Partial<LockoutPolicy>;
  readonly ws?: WsHubOptions;
  readonly requestLogSize?: number;
  readonly tokenLifetimeMs?: number;
  /**
   * The retail-algo framework (config/market-rules/retail-algo.yaml): new orders a second per
   * exchange segment (default the exchange's threshold) and the account's registered algo ids.
   */
  readonly retailAlgo?: { readonly perSegment?: number; readonly algoIds?: RegisteredAlgoIds };
  readonly calendar?: MarketCalendar;
  /** Universe size and market knobs, passed to the venue. */
  readonly venue?: Omit<VenueAssemblyOptions, 'clock' | 'seed' | 'calendar' | 'tsl' | 'log'>;
  readonly logger?: Logger;
}

/** The `sim.ready` secrets, in wire spelling. */
export interface SimulatorCredentials {
  readonly api_key: string;
  readonly mpin: string;
  readonly totp_secret: string;
  readonly access_token: string;
  readonly admin_key: string;
}

export interface RunningSimulator {
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly credentials: SimulatorCredentials;
  readonly clock: Clock;
  readonly venue: SimVenue;
  /** The code the account holder's authenticator shows now (on the wall clock). */
  totpCode(): string;
  close(): Promise<void>;
}

/** 09:15 IST of today if it trades, else of the last trading day before it. */
export function defaultStart(calendar: MarketCalendar, wallNow: number): number {
  const today = istDate(wallNow);
  const s = calendar.session(today) ?? calendar.session(calendar.previousTradingDay(today));
  if (!s) throw new ConfigError(`no trading session found near ${today}`);
  return s.open;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ConfigError(`simulator options: ${formatZodIssues(parsed.error, { limit: 1 })}`);
  }
  const o = parsed.data;
  const log = options.logger ?? createLogger({ name: 'sim' });
  const calendar = options.calendar ?? nseCalendar();

  let clockControl: ClockControl;
  if (options.clock instanceof VirtualClock) clockControl = virtualControl(options.clock);
  else if (options.clock instanceof PacedClock) clockControl = pacedControl(options.clock);
  else if (options.clock) clockControl = fixedControl(options.clock);
  else {
    // eslint-disable-next-line no-restricted-properties -- the one wall-time read: where the market day starts
    const start = o.start ?? defaultStart(calendar, Date.now());
    clockControl = pacedControl(new PacedClock(start, o.speed));
  }
  const clock = clockControl.clock;

  const creds = makeCredentials(options.credentials);
  const tokens = new TokenRegistry(clock, o.tokenLifetimeMs);
  const lockout = new TotpLockout(clock, { ...DEFAULT_LOCKOUT_POLICY, ...options.lockout }, (alert) =>
    log.warn({ alert: 'totp_lockout', until: alert.until, locks: alert.locksInWindow }, 'ALERT to account holder: token generation locked for 1 hour after repeated wrong TOTP codes'),
  );
  const wallClock = options.wallClock ?? new WallClock();
  const tokenService = new TokenService(clock, wallClock, creds, tokens, lockout);
  const dashboard = tokens.issueDashboard();
  const requests = new RequestLog(o.requestLogSize);

  const venue = await assembleVenue({ clock, seed: o.seed, calendar, tsl: o.tsl, log, ...options.venue });

  // The hub needs the listening server, the control API needs the hub: a late-bound reference.
  const wsRef: { hub?: WsHub } = {};
  const ctx: SimContext = {
    clock,
    wallClock,
    clockControl,
    log,
    creds,
    tokens,
    tokenService,
    limiter: options.rateLimits === false ? undefined : new RateLimiter(clock, options.rateLimits ?? {}),
    retailAlgo: {
      algoIds: options.retailAlgo?.algoIds ?? {},
      window: options.rateLimits === false ? undefined : new SegmentOrderWindow(options.retailAlgo?.perSegment ?? retailAlgoRules().ordersPerSecond),
    },
    whitelist: new StaticIpWhitelist(clock, options.staticIps, o.staticIpWeeklyRule),
    faults: noFaults(),
    random: seededRandom(o.seed ^ 0x5eed),
    requests,
    held: new HeldCalls(requests, () => clock.now()),
    venue,
    wsControl: { dropAll: () => wsRef.hub?.dropAll() ?? 0 },
  };

  const app = buildApp(ctx, [accountRoutes, marketRoutes, orderRoutes, smartRoutes, portfolioRoutes, controlRoutes]);
  await app.listen({ host: o.host, port: o.port });
  const hub = new WsHub(app.server, { clock, log, tokens, venue, faults: ctx.faults }, options.ws);
  wsRef.hub = hub;

  const addr = app.server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const baseUrl = `http://${host}:${addr.port}`;
  const wsUrl = `ws://${host}:${addr.port}${hub.path}`;
  log.info({ base_url: baseUrl, ws_url: wsUrl, now: clock.now(), seed: o.seed }, 'simulator listening');

  let closed = false;
  return {
    baseUrl,
    wsUrl,
    clock,
    venue,
    credentials: {
      api_key: creds.apiKey,
      mpin: creds.mpin,
      totp_secret: creds.totpSecret,
      access_token: dashboard.token,
      admin_key: creds.adminKey,
    },
    totpCode: () => tokenService.currentCode(),
    async close() {
      if (closed) return;
      closed = true;
      hub.close();
      ctx.held.releaseAll();
      app.server.closeAllConnections?.();
      await app.close();
      venue.close();
      clockControl.close();
    },
  };
}
