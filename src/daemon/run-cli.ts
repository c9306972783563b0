/**
 * What `tarang run` and `tarang paper` share: load the config, apply flag overrides, launch, install
 * the signal handlers, stop at `--duration` (clock time) or, for paper without one, at the session
 * close, and wait for the daemon to stop.
 */
import { nseCalendar } from '../core/calendar.js';
import { ConfigError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { istDate } from '../core/time.js';
import { basename, resolve } from 'node:path';
import { isStrategyPath } from '../strategies/strategy-file.js';
import { loadDaemonConfig, LogLevelSchema, PaperSchema, parseDuration, type DaemonConfig, type StrategyEntry } from './config.js';
import type { DaemonMode } from './daemon.js';
import { launchDaemon } from './launch.js';
import { handleStopSignals } from './signals.js';

export interface CliFlags {
  readonly config: string;
  readonly duration?: string;
  readonly speed?: string;
  readonly store?: string;
  readonly opsPort?: string;
  readonly status?: boolean;
  readonly logLevel?: string;
  /** A strategy (registry name or file) to run instead of the config's strategies. */
  readonly strategy?: string;
  /** `name=value` parameters of `--strategy`. */
  readonly param?: readonly string[];
}

/** A scalar flag value: numbers and booleans typed, anything else kept as text (as `backtest --param`). */
function scalar(text: string): number | string | boolean {
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/**
 * `--strategy X --param k=v`: one strategy instead of the config's list. A file is made absolute
 * from the current folder (the config's own paths are relative to the config file); its instance
 * id is the file's name.
 */
function flagStrategy(f: CliFlags): StrategyEntry {
  const ref = f.strategy!;
  const params: Record<string, unknown> = {};
  for (const kv of f.param ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new ConfigError(`--param: expected name=value, got ${JSON.stringify(kv)}`);
    params[kv.slice(0, i).trim()] = scalar(kv.slice(i + 1).trim());
  }
  const path = isStrategyPath(ref);
  const strategy = path && !ref.startsWith('file:') ? resolve(ref) : ref;
  const base = path ? basename(ref).replace(/\.[cm]?[jt]s$/, '') : ref;
  const id = base.replace(/[^A-Za-z0-9_-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 32) || 'strategy';
  return { id, strategy, params, enabled: true };
}

export function applyFlags(c: DaemonConfig, f: CliFlags, mode: DaemonMode): DaemonConfig {
  let out = c;
  if (f.store !== undefined) out = { ...out, store: f.store };
  if (f.opsPort !== undefined) {
    const port = Number(f.opsPort);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`--ops-port: expected a port number, got ${JSON.stringify(f.opsPort)}`);
    out = { ...out, ops: { ...out.ops, port } };
  }
  if (f.status === false) out = { ...out, statusIntervalMs: 0 };
  if (f.logLevel !== undefined) {
    const levels = LogLevelSchema.options;
    const level = LogLevelSchema.safeParse(f.logLevel);
    if (!level.success) throw new ConfigError(`--log-level: expected one of ${levels.join(', ')}, got ${JSON.stringify(f.logLevel)}`);
    out = { ...out, log: { level: level.data } };
  }
  if (f.strategy !== undefined) out = { ...out, strategies: [flagStrategy(f)] };
  else if (f.param?.length) throw new ConfigError('--param: give the strategy too (--strategy NAME|FILE), or set params in the config');
  if (mode === 'paper') {
    const paper = out.paper ?? PaperSchema.parse({});
    let speed = paper.speed;
    if (f.speed !== undefined) {
      speed = Number(f.speed);
      if (!(speed > 0) || !Number.isFinite(speed)) throw new ConfigError(`--speed: expected a positive number, got ${JSON.stringify(f.speed)}`);
    }
    out = { ...out, paper: { ...paper, speed, ...(f.duration !== undefined ? { duration: f.duration } : {}) } };
  }
  return out;
}

export async function runFromCli(mode: DaemonMode, flags: CliFlags): Promise<void> {
  const config = applyFlags(loadDaemonConfig(flags.config), flags, mode);
  let durationS: number | undefined;
  const durationText = flags.duration ?? (mode === 'paper' ? config.paper?.duration : undefined);
  if (durationText !== undefined) {
    try {
      durationS = parseDuration(durationText);
    } catch (e) {
      throw new ConfigError(`--duration: ${(e as Error).message}`);
    }
  }
  const log = createLogger({ level: config.log.level, name: `tarang-${mode}` });
  const say = (text: string): void => {
    if (config.statusIntervalMs > 0) process.stdout.write(`${text}\n`);
  };
  if (mode === 'paper') {
    const p = config.paper ?? PaperSchema.parse({});
    say(p.simulator === 'embedded' ? `tarang paper: starting the broker simulator (synthetic NSE/BSE universe, clock x${p.speed})...` : `tarang paper: using the simulator at ${p.simulator}`);
  } else say('tarang run: starting the live daemon...');
  const { daemon, clock } = await launchDaemon({ config, file: flags.config, mode, log });
  const off = handleStopSignals({
    stop: (signal) => daemon.stop(`signal ${signal}`),
    onForce: () => process.stderr.write('\ntarang: forced exit; the next start reconciles with the broker\n'),
  });
  try {
    say(`logging in, loading instruments, reconciling with the broker, starting ${config.strategies.filter((x) => x.enabled).length} strategies...`);
    await daemon.start();
    const startedAt = clock.now();
    say(`running: ops on http://${config.ops.host}:${daemon.port ?? '-'} (/health, /metrics; tarang ctl status|halt|resume|flatten). Ctrl-C stops cleanly.`);
    let stopAt: number | undefined;
    if (durationS !== undefined) stopAt = startedAt + durationS * 1000;
    else if (mode === 'paper') stopAt = nseCalendar().session(istDate(startedAt))?.close;
    if (stopAt !== undefined) {
      const why = durationS !== undefined ? `duration ${durationText} reached` : 'session closed';
      clock.setTimeout(() => void daemon.stop(why), Math.max(0, stopAt - startedAt));
    }
    await daemon.stopped;
  } finally {
    off();
  }
}
