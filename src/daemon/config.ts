/**
 * The daemon's config file (`tarang run|paper --config <file>`): the sections other components own
 * (broker, risk, execution) composed with the daemon's own (strategies, store, ops, recording,
 * alerts, shutdown, paper). Loaded with the core loader, so every problem names the file, the line
 * and the key path. Secrets come from the environment (`${TARANG_MPIN}`), never from the file.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { brokerEnv, BrokerConfigSchema } from '../adapters/broker/config.js';
import { ExecutionConfigSchema } from '../adapters/execution/config.js';
import { RiskConfigSchema } from '../risk/config.js';
import { cfg, loadConfigFile, type Env } from '../core/config.js';
import { defaultStateDir } from './state-dir.js';
import { IntradayExitAtInput } from '../risk/rules/square-off.js';

export const ShutdownAction = { NONE: 'none', CANCEL: 'cancel', FLATTEN: 'flatten' } as const;
export type ShutdownAction = (typeof ShutdownAction)[keyof typeof ShutdownAction];

const action = z.enum(['none', 'cancel', 'flatten']);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time as HH:MM (IST)');
/** pino's levels, and `silent`. */
export const LogLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
/** `90s`, `15m`, `6h15m`, `1h`, or plain seconds. */
const durationText = z.union([z.number().positive(), z.string().regex(/^(\d+h)?(\d+m)?(\d+s)?$/, 'expected a duration like 90s, 15m or 6h15m').refine((s) => s.length > 0)]);

export const StrategyEntrySchema = z
  .object({
    /** Unique instance id: the tag prefix of its orders and the key of its persisted state. */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'expected 1-32 letters, digits, - or _'),
    /** Registry name, e.g. `sma-cross`. */
    strategy: z.string().min(1),
    params: z.record(z.string(), z.unknown()).default({}),
    /**
     * One instance per instrument: `[NSE:RELIANCE, NSE:INFY]`, or a file of them (one a line, `#`
     * comments) relative to this config; each instance gets `params.instrument` and the id
     * `<id>:<symbol>` (universe.ts).
     */
    universe: z.union([z.array(z.string().min(1)).min(1, 'list at least one instrument'), z.string().min(1)]).optional(),
    enabled: z.boolean().default(true),
  })
  .strict();
export type StrategyEntry = z.output<typeof StrategyEntrySchema>;

export const PaperSchema = z
  .object({
    /** `embedded`: start the simulator in this process; otherwise the simulator's base URL. */
    simulator: z.union([z.literal('embedded'), z.string().regex(/^https?:\/\//, 'expected "embedded" or an http(s):// URL')]).default('embedded'),
    /** Simulator's WebSocket URL when `simulator` is a URL (default: same host, path /ws). */
    wsUrl: z.string().regex(/^wss?:\/\//).optional(),
    /** Simulated seconds per real second. */
    speed: z.number().positive().max(100_000).default(60),
    /** Trading day to simulate (`YYYY-MM-DD`); default: the latest day the data covers. */
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD').optional(),
    /** Start time on that day (IST). */
    start: hhmm.default('09:15'),
    /** How much simulated time to run; default: to the session end. */
    duration: durationText.optional(),
    /** Seed of the simulator's price paths (same seed, same day). */
    seed: z.number().int().default(1),
    /** Opening cash of the paper account: rupees in the file (`1000000`, `"10 lakh"`), paise after parsing. */
    capital: cfg.rupees().default(10_00_000_00),
    /** The embedded simulator's market: universe size and how often instruments tick (market ms). */
    market: z
      .object({
        nseEquities: z.number().int().positive().optional(),
        bseEquities: z.number().int().nonnegative().optional(),
        tickMs: z
          .object({ cash: z.number().int().positive().default(2_000), futures: z.number().int().positive().default(5_000), options: z.number().int().positive().default(300_000) })
          .strict()
          .default({ cash: 2_000, futures: 5_000, options: 300_000 }),
      })
      .strict()
      .default({ tickMs: { cash: 2_000, futures: 5_000, options: 300_000 } }),
  })
  .strict();

export const DaemonConfigSchema = z
  .object({
    broker: BrokerConfigSchema.optional(),
    risk: RiskConfigSchema.default(RiskConfigSchema.parse({})),
    execution: ExecutionConfigSchema.default(ExecutionConfigSchema.parse({})),
    strategies: z.array(StrategyEntrySchema).min(1, 'list at least one strategy'),
    /** `memory` (state dies with the process) or `redis://host:port/db`. */
    store: z.union([z.literal('memory'), z.string().regex(/^rediss?:\/\//, 'expected "memory" or a redis:// URL')]).default('memory'),
    /** Key prefix in Redis: one per account, so two daemons never share state by accident. */
    storePrefix: z.string().min(1).default('tarang:'),
    /** Where the state file(s) live: control token, default recordings. */
    stateDir: z.string().default(defaultStateDir()),
    ops: z
      .object({
        enabled: z.boolean().default(true),
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535).default(9464),
        /** Control token; when absent it is read from (or created in) `tokenFile` (0600). */
        token: z.string().min(16).optional(),
        tokenFile: z.string().optional(),
      })
      .strict()
      .default({ enabled: true, host: '127.0.0.1', port: 9464 }),
    recording: z
      .object({ enabled: z.boolean().default(true), dir: z.string().optional(), ticks: z.boolean().default(true) })
      .strict()
      .default({ enabled: true, ticks: true }),
    alerts: z
      .object({
        // `${TARANG_ALERT_WEBHOOK:-}` leaves an empty string: that means no webhook.
        webhook: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^https?:\/\//, 'expected an http(s):// URL').optional()),
        disconnectAfterSeconds: z.number().positive().default(30),
        /** RECONNECTS_REPEATED when one connection reconnects `count` times within `windowSeconds`. */
        reconnects: z
          .object({ count: z.number().int().min(2).default(5), windowSeconds: z.number().positive().default(600) })
          .strict()
          .default({ count: 5, windowSeconds: 600 }),
      })
      .strict()
      .default({ disconnectAfterSeconds: 30, reconnects: { count: 5, windowSeconds: 600 } }),
    shutdown: z
      .object({
        /** On SIGINT/SIGTERM or `--duration`: leave orders, cancel open orders, or cancel and flatten. */
        onStop: action.default('cancel'),
        /** At the session end time: the same choices. */
        atSessionEnd: action.default('none'),
        sessionEnd: hhmm.default('15:20'),
        /**
         * When the engine exits INTRADAY positions itself, before the broker's square-off
         * (config/market-rules/square-off.yaml): \`off\`, \`HH:MM\`, or \`{ EQUITY: HH:MM, FNO: HH:MM }\`.
         * Default: five minutes before each segment's square-off (15:15 equity, 15:20 F&O).
         */
        intradayExitAt: IntradayExitAtInput.optional(),
        /** Longest wait for in-flight writes and the final actions. */
        timeoutSeconds: z.number().positive().default(20),
      })
      .strict()
      .default({ onStop: 'cancel', atSessionEnd: 'none', sessionEnd: '15:20', timeoutSeconds: 20 }),
    paper: PaperSchema.optional(),
    /**
     * Circuit bands of subscribed instruments, from full quotes (spec 2.4), fed to the risk layer's
     * circuit check at start and every `refreshSeconds` of clock time.
     */
    circuits: z
      .object({ enabled: z.boolean().default(true), refreshSeconds: z.number().min(1).default(900) })
      .strict()
      .default({ enabled: true, refreshSeconds: 900 }),
    /** Strategy state is saved this often (real seconds), and at stop. */
    checkpointSeconds: z.number().positive().default(5),
    /** Terminal status line every this many real ms (0: off). */
    statusIntervalMs: z.number().int().nonnegative().default(1_000),
    log: z.object({ level: LogLevelSchema.default('info') }).strict().default({ level: 'info' }),
  })
  .strict();

export type DaemonConfig = z.output<typeof DaemonConfigSchema>;
export type DaemonConfigInput = z.input<typeof DaemonConfigSchema>;
export type PaperConfig = z.output<typeof PaperSchema>;

/** Loads a daemon config file; relative paths inside it resolve against the file's folder. */
export function loadDaemonConfig(file: string, env: Env = process.env): DaemonConfig {
  const c = loadConfigFile(file, DaemonConfigSchema, env, { prepare: (raw) => withBrokerEnv(raw, env) });
  const base = resolve(file, '..');
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(base, expandHome(p)));
  return {
    ...c,
    stateDir: abs(c.stateDir),
    ops: { ...c.ops, ...(c.ops.tokenFile ? { tokenFile: abs(c.ops.tokenFile) } : {}) },
    recording: { ...c.recording, ...(c.recording.dir ? { dir: abs(c.recording.dir) } : {}) },
  };
}

/**
 * A `broker:` section takes what it does not say from the `TARANG_*` variables, as the broker
 * commands do (`broker: {}` plus the environment is a whole broker config); what the file says wins.
 */
function withBrokerEnv(raw: unknown, env: Env): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const section = (raw as Record<string, unknown>)['broker'];
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return raw;
  const given = Object.fromEntries(Object.entries(section).filter(([, v]) => v !== undefined && v !== ''));
  return { ...raw, broker: { ...brokerEnv(env), ...given } };
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** Seconds of a duration written as `90s`, `15m`, `6h15m` or a number of seconds. */
export function parseDuration(d: string | number): number {
  if (typeof d === 'number') return d;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(d);
  if (!m || d.length === 0) throw new RangeError(`expected a duration like 90s, 15m or 6h15m, got ${JSON.stringify(d)}`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}
