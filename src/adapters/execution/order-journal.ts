/**
 * The order journal: the one owner of the store namespaces `tags` (who placed an order, for
 * adoption after a restart) and `mods` (modifications an order has used, for the venue's cap).
 *
 * For asynchronous (network) venues an order's tag is journaled before its write leaves, so a
 * crash in between can always be reconciled by tag; in-process venues need no journal. The engine
 * reads the journal at start (attributing adopted orders to their strategy) and re-writes it after
 * the store lost it; the daemon writes back entries of finished orders it saw on the bus.
 *
 * Pruning: without it the entries pile up for as long as the store lives (days of unattended
 * running). An entry goes only when nothing could still need it:
 * - its order, every part of it (a smart order's legs), is final in the engine and nothing is
 *   outstanding for it: no write whose answer is awaited or unknown, no reconcile lookup, no held
 *   change, no fills still owed (`busy`);
 * - the venue's order book, read in full after the entry was written, does not list the tag at
 *   all: a restart reads that same book and would adopt whatever it lists, live or finished, so
 *   while the venue shows the order its journal entry is what attributes it (and its fills) to the
 *   right strategy. Broker order books are day books: a day's orders drop out of the next day's
 *   book, while a smart order that is still live (they last up to a year) stays listed, and kept;
 * - it was written before `before` (the start of the current trading day): an entry of today's
 *   order that the book does not list yet may be a write the venue has not shown yet.
 * So a restart after pruning finds in the journal every order the venue can still show.
 */
import type { JsonValue, Store } from '../../core/store.js';
import { legTag, rootTag } from './tags.js';

const TAGS = 'tags';
const MODS = 'mods';

/** One journal entry (`tags` namespace), keyed by the order's tag. */
export interface JournalEntry {
  readonly ts?: number;
  readonly tag?: string;
  readonly strategyId?: string;
  readonly instrument?: string;
  readonly side?: string;
  readonly qty?: number;
  /** A smart order placed at the venue. */
  readonly smart?: boolean;
  /** An emulated smart order's leg: its parent's tag. */
  readonly parent?: string;
}

/** Journals an order's tag (before its write leaves, or when re-writing after a store loss). */
export function writeJournalEntry(store: Store, tag: string, entry: { readonly [k: string]: string | number | boolean }): Promise<void> {
  return store.set(TAGS, tag, entry);
}

/** Every journal entry, by tag (records that are not objects are skipped). */
export async function readJournal(store: Store): Promise<Map<string, JournalEntry>> {
  const out = new Map<string, JournalEntry>();
  for (const [tag, v] of await store.entries<JsonValue>(TAGS)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) out.set(tag, v as JournalEntry);
  }
  return out;
}

/** The tags the journal holds. */
export async function journaledTags(store: Store): Promise<Set<string>> {
  return new Set((await store.entries(TAGS)).map(([k]) => k));
}

/** Persists the modifications an order has used (before the modify is sent). */
export function writeModifications(store: Store, tag: string, n: number): Promise<void> {
  return store.set(MODS, tag, n);
}

/** Every persisted modification count, by tag. */
export async function readModifications(store: Store): Promise<Array<[string, number]>> {
  const out: Array<[string, number]> = [];
  for (const [tag, n] of await store.entries<number>(MODS)) if (typeof n === 'number') out.push([tag, n]);
  return out;
}

export interface JournalPruneInput {
  readonly store: Store;
  /** Tags (`remarks`) the venue's order book listed at the last full read, which came after `before`. */
  readonly listed: ReadonlySet<string>;
  /** Entries written at or after this time are kept. */
  readonly before: number;
  /** Whether the engine still tracks, awaits or owes anything for this exact tag. */
  readonly busy: (tag: string) => boolean;
}

export interface JournalPruneResult {
  /** Orders whose entries were removed. */
  readonly pruned: number;
  /** Journal entries kept. */
  readonly kept: number;
}

export async function pruneJournal(i: JournalPruneInput): Promise<JournalPruneResult> {
  const tags = await i.store.entries<JsonValue>(TAGS);
  const mods = new Set((await i.store.entries<JsonValue>(MODS)).map(([k]) => k));
  const entries = new Set(tags.map(([k]) => k));
  const journaled = new Map<string, number | undefined>();
  for (const [k, v] of tags) journaled.set(k, tsOf(v));
  // A count without an entry (an adopted order we modified) is judged by its order's root tag.
  for (const m of mods) {
    if (!journaled.has(m) && !journaled.has(rootTag(m))) journaled.set(rootTag(m), undefined);
  }
  let pruned = 0;
  let kept = 0;
  for (const [key, ts] of journaled) {
    if (!prunable(i, key, ts)) {
      if (entries.has(key)) kept++;
      continue;
    }
    const gone: Array<Promise<void>> = entries.has(key) ? [i.store.delete(TAGS, key)] : [];
    for (const m of [key, legTag(key, 'stopLoss'), legTag(key, 'target')]) if (mods.has(m)) gone.push(i.store.delete(MODS, m));
    await Promise.all(gone);
    pruned++;
  }
  return { pruned, kept };
}

function prunable(i: JournalPruneInput, key: string, ts: number | undefined): boolean {
  if (ts !== undefined && ts >= i.before) return false;
  if (i.listed.has(key)) return false;
  return !i.busy(key) && !i.busy(legTag(key, 'stopLoss')) && !i.busy(legTag(key, 'target'));
}

function tsOf(v: JsonValue): number | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const ts = v['ts'];
  return typeof ts === 'number' ? ts : undefined;
}
