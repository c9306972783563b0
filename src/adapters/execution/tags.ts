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
 * - A smart order's legs carry the parent's tag on the wire; their records are keyed
 *   `<tag>.sl` / `<tag>.tg` (legTag), and rootTag takes the suffix off again.
 */
import { ConfigError } from '../../core/errors.js';
import type { SmartLegName } from '../../core/intents.js';

export const DEFAULT_TAG_PREFIX = 'tr';
/** The prefix of orders placed by hand through the CLI; reserved (checkTagPrefix refuses it). */
export const MANUAL_TAG_PREFIX = 'man';

const LEG_SUFFIX: Readonly<Record<SmartLegName, string>> = { entry: '', stopLoss: '.sl', target: '.tg' };
const LEG_SUFFIX_RE = /\.(sl|tg)$/;

/** The record key of a smart order's part: the parent's tag for the entry, `.sl` / `.tg` for the legs. */
export function legTag(parentTag: string, leg: SmartLegName): string {
  return parentTag + LEG_SUFFIX[leg];
}

/** The order's own tag (as in `remarks`) of a record key: a leg's suffix taken off. */
export function rootTag(tag: string): string {
  return tag.replace(LEG_SUFFIX_RE, '');
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

/** Matches our tags (legs included) of one prefix; group 1 is the run, group 2 the sequence. */
export function tagPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}([0-9a-z]+)-([0-9a-z]+)(?:\\.(?:sl|tg))?$`);
}

const patterns = new Map<string, RegExp>();

export interface ParsedTag {
  readonly run: number;
  readonly seq: number;
  readonly leg: SmartLegName;
}

/** Takes one of our tags apart; undefined for a tag of another prefix or format. */
export function parseTag(tag: string, prefix: string = DEFAULT_TAG_PREFIX): ParsedTag | undefined {
  let re = patterns.get(prefix);
  if (!re) patterns.set(prefix, (re = tagPattern(prefix)));
  const m = re.exec(tag);
  if (!m) return undefined;
  const leg: SmartLegName = tag.endsWith(LEG_SUFFIX.stopLoss) ? 'stopLoss' : tag.endsWith(LEG_SUFFIX.target) ? 'target' : 'entry';
  return { run: parseInt(m[1]!, 36), seq: parseInt(m[2]!, 36), leg };
}

/** Mints the tags of one run: `<prefix><run>-<seq>` in base 36. */
export class TagMinter {
  /** `<prefix><run>-`, computed once: tags are minted on the hot path. */
  private readonly head: string;
  private readonly pattern: RegExp;
  private seq = 0;

  constructor(
    readonly prefix: string,
    readonly run: number,
  ) {
    checkTagPrefix(prefix);
    this.head = `${prefix}${run.toString(36)}-`;
    this.pattern = tagPattern(prefix);
  }

  next(): string {
    return this.head + (++this.seq).toString(36);
  }

  /** Whether a tag (of any run, legs included) has our prefix and format. */
  isOurs(tag: string): boolean {
    return this.pattern.test(tag);
  }
}
