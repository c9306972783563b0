/**
 * Glue for the human CLI commands (src/cli/commands/{account,quote,instruments,contracts,candles,
 * token}.ts): connection options, building a broker from flags + config file + environment, and
 * readable output (aligned tables, or JSON with --json).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { WallClock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { createCliLogger } from '../../core/cli-log.js';
import { formatInr, PAISE_PER_RUPEE } from '../../core/money.js';
import { createBroker, type Broker } from './broker.js';
import { loadBrokerConfig, type BrokerConfigInput } from './config.js';
import { defaultCacheDir } from './helpers/cache-dir.js';
import { defaultStateDir } from '../../core/state-dir.js';
import type { ConnectionFlags } from './connection-flags.js';

export { withConnection, type ConnectionFlags } from './connection-flags.js';

function fileSection(file: string): Partial<BrokerConfigInput> {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read it as yaml: ${(e as Error).message}`, { file });
  }
  const section = doc && typeof doc === 'object' ? ((doc as Record<string, unknown>)['broker'] ?? doc) : {};
  return section as Partial<BrokerConfigInput>;
}

/**
 * A broker for a one-shot command: wall clock, no renewal timer, logs to stderr at warn, and the
 * account's shared session (the daemon's token is reused, never replaced by a command beside it).
 */
export function connect(flags: ConnectionFlags): Broker {
  const fromFile = flags.config ? fileSection(flags.config) : {};
  const config = loadBrokerConfig(
    { ...fromFile, ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}), ...(flags.wsUrl ? { wsUrl: flags.wsUrl } : {}) },
    process.env,
    flags.config ?? 'broker settings (flags and TARANG_* environment)',
  );
  return createBroker(config, {
    clock: new WallClock(),
    logger: createCliLogger('broker'),
    autoRenew: false,
    sharedSession: { stateDir: defaultStateDir() },
  });
}

export function cacheDirOf(broker: Broker): string {
  return broker.config.cacheDir ?? defaultCacheDir();
}

/** Runs `fn` with a broker and always closes it. */
export async function withBroker<T>(flags: ConnectionFlags, fn: (b: Broker) => Promise<T>): Promise<T> {
  const b = connect(flags);
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
}

export type Cell = string | number | boolean | undefined | null;

/** Paise as rupees with Indian grouping (`₹10,00,000.00`, `-₹421.38`), blank when absent. */
export function rupees(p: number | undefined | null): string {
  return p === undefined || p === null ? '' : formatInr(Math.round(p));
}

/** A rupee amount the broker sends as a number (funds, positions) shown like `rupees`. */
export function rupeeAmount(r: number | undefined | null): string {
  return r === undefined || r === null ? '' : formatInr(Math.round(r * PAISE_PER_RUPEE));
}

/** An aligned text table (numbers right-aligned). */
export function table(rows: ReadonlyArray<Record<string, Cell>>, columns?: readonly string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cols = columns ?? Object.keys(rows[0]!);
  const text = rows.map((r) => cols.map((c) => (r[c] === undefined || r[c] === null ? '' : String(r[c]))));
  const widths = cols.map((c, i) => Math.max(c.length, ...text.map((t) => t[i]!.length)));
  // \u20B9: ₹ (kept ASCII for the CLI bundle, bin/cli-bundle.js).
  const numeric = cols.map((c) => rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number' || /^-?\u20B9?[\d,]+(\.\d+)?$/.test(String(r[c]))));
  const fmt = (cells: readonly string[]) => cells.map((s, i) => (numeric[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  return [fmt(cols), fmt(widths.map((w) => '-'.repeat(w))), ...text.map(fmt)].join('\n') + '\n';
}

export function print(flags: { json?: boolean }, value: unknown, asTable: () => string): void {
  process.stdout.write(flags.json ? `${JSON.stringify(value, null, 2)}\n` : asTable());
}

/** A key/value listing for one record; values right-aligned when they are all numbers or rupees. */
export function keyValues(rec: Record<string, Cell>): string {
  const w = Math.max(...Object.keys(rec).map((k) => k.length));
  const text = Object.values(rec).map((v) => (v === undefined || v === null ? '' : String(v)));
  const numeric = text.every((t) => t === '' || /^-?\u20B9?[\d,]+(\.\d+)?$/.test(t));
  const vw = Math.max(0, ...text.map((t) => t.length));
  return Object.keys(rec).map((k, i) => `${k.padEnd(w)}  ${numeric ? text[i]!.padStart(vw) : text[i]}`.trimEnd()).join('\n') + '\n';
}

/** Keeps the first `limit` rows (all when absent), saying on stderr how many were left out. */
export function limited<T>(rows: readonly T[], limit: number | undefined, what: string): T[] {
  if (limit === undefined || rows.length <= limit) return [...rows];
  process.stderr.write(`showing the first ${limit} of ${rows.length} ${what} (--limit)\n`);
  return rows.slice(0, limit);
}
