/**
 * Config files: YAML read with `yaml`, `${ENV}` substituted (secrets stay out of files), validated
 * with zod. Every problem is reported at once, each line naming the file and the key path:
 *   config/paper.yaml:45: risk.maxOrderValue: expected rupees with at most 2 decimals (whole paise), got 500000.005
 * Money is written in rupees and read with `cfg.rupees()` into exact paise (src/core/rupee-amount.ts).
 * Section schemas live with the component they configure (src/risk/config.ts, ...); the daemon
 * composes them.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import type { Paise } from './money.js';
import { RUPEE_EXAMPLES, rupeesToPaise } from './rupee-amount.js';
import { issuePath } from './zod-issues.js';

export type Env = Readonly<Record<string, string | undefined>>;

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface ConfigParseOptions {
  /**
   * Applied to the parsed, env-substituted value before validation (defaults a section takes from
   * elsewhere, e.g. the broker's settings from `TARANG_*` variables). Errors still point at the file.
   */
  readonly prepare?: (raw: unknown) => unknown;
}

/** Reads and validates a YAML config file. */
export function loadConfigFile<S extends z.ZodType>(file: string, schema: S, env: Env = process.env, options: ConfigParseOptions = {}): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read config file: ${(e as Error).message}`, { file });
  }
  return parseConfigText(text, file, schema, env, options);
}

/** Parses YAML text as config; `source` names it in errors (usually the file path). */
export function parseConfigText<S extends z.ZodType>(text: string, source: string, schema: S, env: Env = process.env, options: ConfigParseOptions = {}): z.output<S> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, lineCounter });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((e) => {
      const pos = e.linePos?.[0];
      return `${source}${pos ? `:${pos.line}:${pos.col}` : ''}: ${e.message.split('\n')[0]}`;
    });
    throw new ConfigError(lines.join('\n'), { source, problems: lines });
  }
  const problems: string[] = [];
  const envPaths = new Set<string>();
  const substituted: unknown = substituteEnv(doc.toJS() ?? {}, env, [], (path, msg) => {
    envPaths.add(path);
    problems.push(`${source}: ${path}: ${msg}`);
  });
  const raw = options.prepare ? options.prepare(substituted) : substituted;
  const result = schema.safeParse(raw);
  if (result.success && problems.length === 0) return result.data;
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map(String);
    if (envPaths.has(path.join('.'))) continue;
    const line = lineOf(doc.contents, path, lineCounter);
    problems.push(`${source}${line ? `:${line}` : ''}: ${issuePath(issue, '(root)')}: ${describeIssue(issue, valueAt(raw, path))}`);
  }
  throw new ConfigError(problems.join('\n'), { source, problems });
}

/** Validates an already-parsed object (CLI flags, env) with the same error style. */
export function validateConfig<S extends z.ZodType>(value: unknown, source: string, schema: S): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.map(String);
    return `${source}: ${issuePath(issue, '(root)')}: ${describeIssue(issue, valueAt(value, path))}`;
  });
  throw new ConfigError(problems.join('\n'), { source, problems });
}

function substituteEnv(v: unknown, env: Env, path: string[], fail: (path: string, msg: string) => void): unknown {
  if (typeof v === 'string') {
    return v.replace(ENV_REF, (_m, name: string, fallback: string | undefined) => {
      const val = env[name];
      if (val !== undefined && val !== '') return val;
      if (fallback !== undefined) return fallback;
      fail(path.join('.') || '(root)', `environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(v)) return v.map((x, i) => substituteEnv(x, env, [...path, String(i)], fail));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substituteEnv(x, env, [...path, k], fail)]));
  }
  return v;
}

/** The value at a key path of a parsed config (undefined where the path leaves the objects). */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/**
 * The line of a key path in a YAML config file (or of its nearest existing parent), for errors
 * found after loading (a strategy's params checked against its own schema); undefined when the
 * file cannot be read or parsed.
 */
export function configLineOf(file: string, path: readonly string[]): number | undefined {
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter });
    return lineOf(doc.contents, [...path], lineCounter);
  } catch {
    return undefined;
  }
}

/** Line of the YAML node at `path` (or of its nearest existing parent), for pointing at errors. */
function lineOf(node: Node | null, path: string[], lc: LineCounter): number | undefined {
  let n: unknown = node;
  let line: number | undefined;
  const at = (x: unknown): number | undefined => {
    const range = (x as { range?: [number, number, number] } | null | undefined)?.range;
    return range ? lc.linePos(range[0]).line : undefined;
  };
  line = at(n);
  for (const k of path) {
    if (isMap(n)) {
      const pair = n.items.find((p) => isScalar(p.key) && String(p.key.value) === k);
      if (!pair) break;
      line = at(pair.key) ?? line;
      n = pair.value;
    } else if (isSeq(n)) {
      n = n.items[Number(k)];
      line = at(n) ?? line;
    } else break;
  }
  return line;
}

/**
 * Keys whose values are secrets (the broker's token, mpin, TOTP secret, api key, the ops token, a
 * Redis password in a URL...). An error about such a key says what is wrong with the value, never
 * the value: config errors end up in terminals, CI logs and journald.
 */
const SECRET_KEY = /token|secret|mpin|pin$|pass(word|wd)?|api_?key|credential|private|auth/i;

/** Whether any key on the path names a secret. */
export function isSecretPath(path: readonly string[]): boolean {
  return path.some((k) => SECRET_KEY.test(k));
}

/** A secret described without its content: its type and length. */
function showSecret(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return `a string of ${v.length} character${v.length === 1 ? '' : 's'} (not shown: a secret)`;
  if (typeof v === 'number') return 'a number (not shown: a secret; quote it if it has leading zeros)';
  return `${Array.isArray(v) ? 'a list' : typeof v} (not shown: a secret)`;
}

function showValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  // A URL's password (redis://:pw@host) is a secret under any key.
  const s = JSON.stringify(typeof v === 'string' ? v.replace(/(\/\/[^/:@\s]*:)[^@/\s]+@/, '$1***@') : v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const show = isSecretPath(issue.path.map(String)) ? showSecret : showValue;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `is required (expected ${issue.expected})`;
      return `${issue.message.startsWith('Invalid input') ? `expected ${issue.expected}` : issue.message}, got ${show(value)}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((x) => JSON.stringify(x)).join(', ')}, got ${show(value)}`;
    default:
      return `${issue.message}, got ${show(value)}`;
  }
}

/** Schema helpers whose messages read well in config errors. */
export const cfg = {
  positiveNumber: () =>
    z.number({ error: 'expected a positive number' }).positive({ error: 'expected a positive number' }),
  positiveInt: () =>
    z.number({ error: 'expected a positive whole number' }).int({ error: 'expected a positive whole number' }).positive({ error: 'expected a positive whole number' }),
  nonNegativeNumber: () =>
    z.number({ error: 'expected a number >= 0' }).nonnegative({ error: 'expected a number >= 0' }),
  fraction: () => z.number({ error: 'expected a number from 0 to 1' }).min(0, { error: 'expected a number from 0 to 1' }).max(1, { error: 'expected a number from 0 to 1' }),
  /**
   * An amount of money in rupees as a person writes it (`500000`, `1426.50`, `"5,00,000"`,
   * `"5 lakh"`), validated and turned into exact integer paise; fractions of a paisa are refused.
   * `min`: `positive` (a limit: leave the key out for none) or `nonnegative`.
   */
  rupees: (min: 'positive' | 'nonnegative' = 'positive') =>
    z.union([z.number(), z.string()], { error: `expected an amount in rupees such as ${RUPEE_EXAMPLES}` }).transform((v, ctx): Paise => {
      const r = rupeesToPaise(v);
      if ('problem' in r) {
        ctx.addIssue({ code: 'custom', message: r.problem });
        return z.NEVER;
      }
      if (min === 'positive' ? r.paise <= 0 : r.paise < 0) {
        ctx.addIssue({ code: 'custom', message: `expected an amount in rupees ${min === 'positive' ? '> 0' : '>= 0'}` });
        return z.NEVER;
      }
      return r.paise;
    }),
};
