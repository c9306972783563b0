/**
 * Client tags: the one place their format is spelled out. Every order carries our tag in the
 * broker's `remarks`; it is what a lost write, a restart or a reconnect finds the order by, so the
 * format must be read the same way everywhere it is minted, matched or taken apart.
 *
 * - An order's tag is `<prefix><run>-<seq>`, run and seq in base 36: the prefix (config
 *   `tagPrefix`, 1-8 lower-case letters, `tr` by default, `bt` in backtests) says the order is
 *   ours, the run number (a store counter raised at every engine start) keeps tags unique across
 *   restarts, the sequence numbers the orders of one run.
 * - Orders placed by hand (`tarang order place`) carry `man<run>-1`, run the placing moment in
 *   base 36: the same format under a prefix no engine may take, so a daemon neither adopts them as
 *   its own nor mistakes them for orders from outside tarang (manualTag, isManualTag).
 * - With strategy keys on (the daemon), an order placed for a strategy ends in `_<key>`: five
 *   base-36 characters of a hash of the strategy id (strategyKey). The tag is the order's
 *   `remarks`, so the broker's book says whose order it is even when the store that journals
 *   tag -> strategy was flushed: a restart adopts the order under its strategy (the engine maps
 *   the key back through the configured strategy ids). Tags stay equal to `remarks` everywhere.
 * - A smart order's legs carry the parent's tag on the wire; their records are keyed
 *   `<tag>.sl` / `<tag>.tg` (legTag), and rootTag takes the suffix off again.
 * - The slices of an auto-sliced order (auto-slice.ts) are orders of their own on the wire, tagged
 *   `<tag>.s1` ... `<tag>.s10` (sliceTag): a restart finds each by its tag like any order.
 */
import { ConfigError } from '../../core/errors.js';
import type { SmartLegName } from '../../core/intents.js';

export const DEFAULT_TAG_PREFIX = 'tr';
/** The prefix of orders placed by hand through the CLI; reserved (checkTagPrefix refuses it). */
export const MANUAL_TAG_PREFIX = 'man';

const LEG_SUFFIX: Readonly<Record<SmartLegName, string>> = { entry: '', stopLoss: '.sl', target: '.tg' };
const LEG_SUFFIX_RE = /\.(sl|tg)$/;
const STRATEGY_KEY_LENGTH = 5;

/** The record key of a smart order's part: the parent's tag for the entry, `.sl` / `.tg` for the legs. */
export function legTag(parentTag: string, leg: SmartLegName): string {
  return parentTag + LEG_SUFFIX[leg];
}

/** The order's own tag (as in `remarks`) of a record key: a leg's suffix taken off. */
export function rootTag(tag: string): string {
  return tag.replace(LEG_SUFFIX_RE, '');
}

/** The tag of slice `n` (1-based) of the auto-sliced order `tag`. */
export function sliceTag(tag: string, n: number): string {
  return `${tag}.s${n}`;
}

const SLICE_SUFFIX_RE = /\.s[0-9]+$/;

/** The tag of the order a slice belongs to (`tr1-5` for `tr1-5.s2`); the tag itself for any other. */
export function sliceRoot(tag: string): string {
  return tag.replace(SLICE_SUFFIX_RE, '');
}

/**
 * Throws unless `prefix` is a valid engine tag prefix (1-8 lower-case letters) that cannot match
 * a manual order's tag: not `man`, nothing it starts with, nothing that starts with it.
 */
export function checkTagPrefix(prefix: string): string {
  if (!/^[a-z]{1,8}$/.test(prefix)) throw new ConfigError(`tagPrefix must be 1-8 lower-case letters, got ${JSON.stringify(prefix)}`);
  if (MANUAL_TAG_PREFIX.startsWith(prefix) || prefix.startsWith(MANUAL_TAG_PREFIX)) {
    throw new ConfigError(`tagPrefix ${JSON.stringify(prefix)} would match the tags of orders placed by hand (${MANUAL_TAG_PREFIX}...); choose another`);
  }
  return prefix;
}

/** The tag of one order placed by hand at wall time `atMs`: `man<atMs in base 36>-1`. */
export function manualTag(atMs: number): string {
  return `${MANUAL_TAG_PREFIX}${Math.floor(atMs).toString(36)}-1`;
}

/** Whether a tag (legs included) is one of an order placed by hand. */
export function isManualTag(tag: string | undefined): boolean {
  return tag !== undefined && parseTag(tag, MANUAL_TAG_PREFIX) !== undefined;
}

/** Matches our tags (legs included) of one prefix; group 1 is the run, group 2 the sequence, group 3 the strategy key. */
export function tagPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}([0-9a-z]+)-([0-9a-z]+)(?:_([0-9a-z]{${STRATEGY_KEY_LENGTH}}))?(?:\\.(?:sl|tg|s[0-9]+))?$`);
}

/**
 * A strategy id's key in tags: FNV-1a (32 bit) of the id in base 36, five characters. Short
 * enough for any remarks, and the engine refuses two configured strategies with one key.
 */
export function strategyKey(strategyId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < strategyId.length; i++) {
    h ^= strategyId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 36 ** STRATEGY_KEY_LENGTH).toString(36).padStart(STRATEGY_KEY_LENGTH, '0');
}

const patterns = new Map<string, RegExp>();

export interface ParsedTag {
  readonly run: number;
  readonly seq: number;
  readonly leg: SmartLegName;
  /** The strategy key (strategyKey) when the tag carries one. */
  readonly strategyKey?: string;
}

/** Takes one of our tags apart; undefined for a tag of another prefix or format. */
export function parseTag(tag: string, prefix: string = DEFAULT_TAG_PREFIX): ParsedTag | undefined {
  let re = patterns.get(prefix);
  if (!re) patterns.set(prefix, (re = tagPattern(prefix)));
  const m = re.exec(tag);
  if (!m) return undefined;
  const leg: SmartLegName = tag.endsWith(LEG_SUFFIX.stopLoss) ? 'stopLoss' : tag.endsWith(LEG_SUFFIX.target) ? 'target' : 'entry';
  return { run: parseInt(m[1]!, 36), seq: parseInt(m[2]!, 36), leg, ...(m[3] !== undefined ? { strategyKey: m[3] } : {}) };
}

/** Mints the tags of one run: `<prefix><run>-<seq>` in base 36, `_<strategy key>` after it when keys are on. */
export class TagMinter {
  /** `<prefix><run>-`, computed once: tags are minted on the hot path. */
  private readonly head: string;
  private readonly pattern: RegExp;
  private readonly keys = new Map<string, string>();
  private seq = 0;

  constructor(
    readonly prefix: string,
    readonly run: number,
    /** Whether tags of a strategy's orders carry its key. */
    readonly strategyKeys = false,
  ) {
    checkTagPrefix(prefix);
    this.head = `${prefix}${run.toString(36)}-`;
    this.pattern = tagPattern(prefix);
  }

  /** The next tag; `strategyId` (when keys are on) is the strategy the order is for. */
  next(strategyId?: string): string {
    const tag = this.head + (++this.seq).toString(36);
    if (!this.strategyKeys || strategyId === undefined) return tag;
    let key = this.keys.get(strategyId);
    if (key === undefined) this.keys.set(strategyId, (key = strategyKey(strategyId)));
    return `${tag}_${key}`;
  }

  /** Whether a tag (of any run, legs included) has our prefix and format. */
  isOurs(tag: string): boolean {
    return this.pattern.test(tag);
  }
}

/**
 * The run to mint from when the broker's book holds tags of run `run` or later (a store that forgot
 * its run counter): one past the highest run the book shows; undefined when `run` is still new.
 */
export function runPastBook(tags: Iterable<string>, prefix: string, run: number): number | undefined {
  let max = 0;
  for (const tag of tags) {
    const parsed = parseTag(tag, prefix);
    if (parsed && parsed.run > max) max = parsed.run;
  }
  return max < run ? undefined : max + 1;
}
