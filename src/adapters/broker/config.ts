/**
 * Broker connection settings, validated at construction. Values come from a config object (the
 * `broker:` section of tarang's yaml) and/or the environment (`TARANG_BASE_URL`, `TARANG_WS_URL`,
 * `TARANG_ORDER_WS_URL`, `TARANG_ACCESS_TOKEN`, `TARANG_API_KEY`, `TARANG_MPIN`,
 * `TARANG_TOTP_SECRET`, `TARANG_REDIS_URL`); explicit config wins over the environment.
 * The live service has two WebSocket hosts (prices, order updates); the simulator serves both at
 * one URL, so `orderWsUrl` defaults to `wsUrl`.
 */
import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { RetryPolicySchema } from './retry-policy.js';
import { issuePath } from '../../core/zod-issues.js';
import { retailAlgoRules, thresholdRefusal } from '../../risk/rules/retail-algo.js';

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const LimitOverride = z
  .object({ perWindow: z.number().int().positive().optional(), windowMs: z.number().int().positive().optional(), perDay: z.number().int().positive().optional() })
  .strict();

export const BrokerConfigSchema = z
  .object({
    baseUrl: url(['http:', 'https:']).transform((s) => s.replace(/\/+$/, '')),
    /** Market data (prices) WebSocket; needed only by the streams (REST-only tools may omit it). */
    wsUrl: url(['ws:', 'wss:']).optional(),
    /** Order and position updates WebSocket; defaults to wsUrl. */
    orderWsUrl: url(['ws:', 'wss:']).optional(),
    accessToken: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    mpin: z.string().min(1).optional(),
    // Authenticator set-up pages show the secret in groups of four: spaces are not part of it.
    totpSecret: z
      .string()
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z2-7]+=*$/, 'must be the base32 secret shown when TOTP was set up (letters A-Z and digits 2-7)'))
      .optional(),
    timeouts: z
      .object({
        connectMs: z.number().int().positive().default(5_000),
        /** Waiting for response headers / between body chunks. */
        requestMs: z.number().int().positive().default(15_000),
        /** A write waits this long before it is treated as lost and reconciled. */
        writeMs: z.number().int().positive().default(10_000),
      })
      .strict()
      .default({ connectMs: 5_000, requestMs: 15_000, writeMs: 10_000 }),
    retry: RetryPolicySchema.default(RetryPolicySchema.parse({})),
    rateLimits: z
      .object({ orders: LimitOverride, data: LimitOverride, quotes: LimitOverride, nonTrading: LimitOverride, token: LimitOverride })
      .partial()
      .strict()
      .default({}),
    /**
     * The retail-algo framework (config/market-rules/retail-algo.yaml): new orders a second per
     * exchange segment (default the exchange's threshold, 10); above it only with registered algo ids.
     */
    orderRate: z.object({ perSegment: z.number().int().positive().optional() }).strict().default({}),
    /** Algo ids registered with the exchanges; orders on an exchange without one carry its generic id. */
    algoIds: z
      .object({ NSE: z.string().regex(/^\d+$/, 'must be the numeric algo id the exchange gave').optional(), BSE: z.string().regex(/^\d+$/, 'must be the numeric algo id the exchange gave').optional() })
      .strict()
      .default({}),
    /** Share the rate budget across processes through this Redis (bottleneck's ioredis datastore). */
    redisUrl: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
    /** Connections kept alive to the REST host. */
    connections: z.number().int().min(1).max(256).default(8),
    /** Bind outgoing connections to this local address (a whitelisted static IP, spec 5.7). */
    localAddress: z.string().optional(),
    /** Renew a generated token this long before its 24 hours run out. */
    renewBeforeMs: z.number().int().min(0).default(30 * 60_000),
    /** Where instrument masters are cached; default ~/.cache/tarang (downloaded candles go into the candle catalog). */
    cacheDir: z.string().optional(),
    ws: z
      .object({
        pingIntervalMs: z.number().int().positive().default(30_000),
        /** No frame for this long while the market is open forces a reconnect. */
        stallMs: z.number().int().positive().default(20_000),
        reconnectBaseMs: z.number().int().positive().default(500),
        reconnectMaxMs: z.number().int().positive().default(30_000),
        maxConnections: z.number().int().min(1).max(3).default(3),
        maxInstrumentsPerConnection: z.number().int().min(1).max(3000).default(3000),
        maxInstrumentsPerFrame: z.number().int().min(1).max(1000).default(1000),
        /** Poll positions this often when no position update has arrived over the stream. */
        positionPollMs: z.number().int().positive().default(15_000),
        handshakeTimeoutMs: z.number().int().positive().default(10_000),
      })
      .strict()
      .default({
        pingIntervalMs: 30_000,
        stallMs: 20_000,
        reconnectBaseMs: 500,
        reconnectMaxMs: 30_000,
        maxConnections: 3,
        maxInstrumentsPerConnection: 3000,
        maxInstrumentsPerFrame: 1000,
        positionPollMs: 15_000,
        handshakeTimeoutMs: 10_000,
      }),
  })
  .strict()
  .superRefine((c, ctx) => {
    const perSegment = c.orderRate.perSegment ?? retailAlgoRules().ordersPerSecond;
    const overThreshold = thresholdRefusal(perSegment, c.algoIds);
    if (overThreshold) ctx.addIssue({ code: 'custom', path: ['orderRate', 'perSegment'], message: overThreshold });
    if (c.accessToken === undefined && (c.apiKey === undefined || c.mpin === undefined || c.totpSecret === undefined)) {
      const missing = (['apiKey', 'mpin', 'totpSecret'] as const).filter((k) => c[k] === undefined);
      ctx.addIssue({
        code: 'custom',
        path: [missing[0] ?? 'accessToken'],
        message: `no way to authenticate: give accessToken (TARANG_ACCESS_TOKEN), or apiKey + mpin + totpSecret (TARANG_API_KEY, TARANG_MPIN, TARANG_TOTP_SECRET); missing ${missing.join(', ')}`,
      });
    }
  });

export type BrokerConfigInput = z.input<typeof BrokerConfigSchema>;
export type BrokerConfig = z.output<typeof BrokerConfigSchema>;

const ENV_KEYS = {
  baseUrl: 'TARANG_BASE_URL',
  wsUrl: 'TARANG_WS_URL',
  orderWsUrl: 'TARANG_ORDER_WS_URL',
  accessToken: 'TARANG_ACCESS_TOKEN',
  apiKey: 'TARANG_API_KEY',
  mpin: 'TARANG_MPIN',
  totpSecret: 'TARANG_TOTP_SECRET',
  redisUrl: 'TARANG_REDIS_URL',
  cacheDir: 'TARANG_CACHE_DIR',
} as const;

/** Reads the connection settings from the environment (unset and empty variables are skipped). */
export function brokerEnv(env: NodeJS.ProcessEnv = process.env): Partial<BrokerConfigInput> {
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(ENV_KEYS)) {
    const v = env[name];
    if (v !== undefined && v.trim() !== '') out[key] = v.trim();
  }
  return out as Partial<BrokerConfigInput>;
}

/**
 * Validates broker settings. `source` names where they came from for the message
 * (e.g. `config/live.yaml: broker`). Throws ConfigError naming each bad key and, for keys that
 * can come from the environment, the variable.
 */
export function parseBrokerConfig(input: unknown, source = 'broker config'): BrokerConfig {
  const r = BrokerConfigSchema.safeParse(input);
  if (!r.success) {
    const lines = r.error.issues.map((i) => {
      const env = ENV_KEYS[i.path[0] as keyof typeof ENV_KEYS];
      return `  ${issuePath(i, '(root)')}${env ? ` (env ${env})` : ''}: ${i.message}`;
    });
    throw new ConfigError(`${source} is invalid:\n${lines.join('\n')}`, { source, issues: r.error.issues.map((i) => ({ path: issuePath(i), message: i.message })) });
  }
  const orderWsUrl = r.data.orderWsUrl ?? r.data.wsUrl;
  return { ...r.data, ...(orderWsUrl ? { orderWsUrl } : {}) };
}

/** Config object merged over the environment, then validated. */
export function loadBrokerConfig(config: Partial<BrokerConfigInput> = {}, env: NodeJS.ProcessEnv = process.env, source = 'broker config'): BrokerConfig {
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return parseBrokerConfig({ ...brokerEnv(env), ...defined }, source);
}
