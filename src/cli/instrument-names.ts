/**
 * Symbols and scrip codes for the broker commands, both ways, through the instrument master (the
 * same per-day cached download the daemon reads, and its `EXCHANGE:SYMBOL` index,
 * src/daemon/symbols.ts):
 * - `resolve`: what a person types where a scrip code is accepted: a scrip code (`NSE_2885`,
 *   `NSE:2885`), `EXCHANGE:SYMBOL` (`NSE:HDFCBANK`, `NFO:NIFTY26DECFUT`, `NIDX:NIFTY`) or a bare
 *   trading symbol (`HDFCBANK`). A bare symbol listed on NSE means the NSE listing (as on a
 *   trading terminal); otherwise it must name exactly one instrument, or the error lists the
 *   candidates. An unknown one is refused with the close names the master does have.
 * - `symbolOf`: the trading symbol beside a scrip code in tables.
 * Masters load lazily, one source (equity, index, fno) at a time and only when a code or symbol
 * needs it: the F&O master is ~65,000 rows.
 */
import { InputException } from '../adapters/broker/errors.js';
import { loadInstrumentMaster } from '../adapters/broker/helpers/instrument-master.js';
import type { Broker } from '../adapters/broker/broker.js';
import { cacheDirOf } from '../adapters/broker/cli-support.js';
import type { MasterSource } from '../core/instrument-master.js';
import { parseScripCode, type Instrument, type InstrumentLookup, type ScripPrefix } from '../core/instruments.js';
import { symbolIndex, type SymbolIndex } from '../daemon/symbols.js';

const SOURCE_OF: Readonly<Record<ScripPrefix, MasterSource>> = { NSE: 'equity', BSE: 'equity', NFO: 'fno', BFO: 'fno', NIDX: 'index', BIDX: 'index' };
/** Order a bare symbol is looked for in: cash first, then indices, then contracts. */
const BARE_ORDER: readonly MasterSource[] = ['equity', 'index', 'fno'];
const REF_RE = /^([A-Z]+):(.+)$/;

/** What a reference resolved to: always a scrip code; the instrument when the master lists it. */
export interface Resolved {
  readonly code: string;
  readonly instrument?: Instrument;
}

interface Loaded {
  readonly byId: Map<string, Instrument>;
  readonly bySymbol: Map<string, Instrument[]>;
  readonly index: SymbolIndex;
}

export class InstrumentNames implements InstrumentLookup {
  private readonly loaded = new Map<MasterSource, Loaded>();

  constructor(private readonly broker: Broker) {}

  /** Loads the masters `codes` need (so `get` and `symbolOf` answer from memory). */
  async prepare(codes: Iterable<string | undefined>): Promise<void> {
    const sources = new Set<MasterSource>();
    for (const c of codes) {
      const p = c === undefined ? undefined : parseScripCode(c);
      if (p) sources.add(SOURCE_OF[p.prefix]);
    }
    for (const s of sources) await this.load(s);
  }

  /** An instrument by scrip code from the masters loaded so far. */
  get(code: string): Instrument | undefined {
    for (const l of this.loaded.values()) {
      const i = l.byId.get(code);
      if (i) return i;
    }
    return undefined;
  }

  /** The trading symbol of a scrip code ('' when the loaded masters do not list it). */
  symbolOf(code: string | undefined): string {
    return code === undefined ? '' : (this.get(code)?.tradingSymbol ?? '');
  }

  /** A scrip code, `EXCHANGE:SYMBOL` or bare symbol to its scrip code (and instrument). */
  async resolve(ref: string, what = 'instrument'): Promise<Resolved> {
    const text = ref.trim().toUpperCase();
    const scrip = parseScripCode(text);
    if (scrip) {
      const code = `${scrip.prefix}_${scrip.securityId}`;
      const instrument = (await this.load(SOURCE_OF[scrip.prefix])).byId.get(code);
      return instrument ? { code, instrument } : { code };
    }
    const m = REF_RE.exec(text);
    if (m) {
      const prefix = m[1]! as ScripPrefix;
      if (!(prefix in SOURCE_OF)) throw new InputException(`${what} ${JSON.stringify(ref)}: unknown exchange ${prefix} (use NSE, BSE, NFO, BFO, NIDX or BIDX, e.g. NSE:HDFCBANK)`, { field: what, ref });
      const l = await this.load(SOURCE_OF[prefix]);
      const found = l.index.bySymbolName(prefix, m[2]!);
      if (found) return { code: found.id, instrument: found };
      throw new InputException(`${what} ${JSON.stringify(ref)}: no such instrument in today's ${SOURCE_OF[prefix]} master${this.suggest(m[2]!, [l], prefix)}`, { field: what, ref });
    }
    if (!/^[A-Z0-9][A-Z0-9&_. -]*$/.test(text)) throw new InputException(`${what} ${JSON.stringify(ref)}: expected a scrip code (NSE_2885), EXCHANGE:SYMBOL (NSE:HDFCBANK) or a symbol (HDFCBANK)`, { field: what, ref });
    const searched: Loaded[] = [];
    for (const source of BARE_ORDER) {
      const l = await this.load(source);
      searched.push(l);
      const hits = l.bySymbol.get(text) ?? [];
      const nse = hits.filter((i) => i.id.startsWith('NSE_'));
      if (nse.length === 1) return { code: nse[0]!.id, instrument: nse[0]! };
      if (hits.length === 1) return { code: hits[0]!.id, instrument: hits[0]! };
      if (hits.length > 1) {
        const list = hits.slice(0, 6).map((i) => `${prefixOf(i)}:${i.tradingSymbol} (${i.id})`).join(', ');
        throw new InputException(`${what} ${JSON.stringify(ref)} is ambiguous: ${list}${hits.length > 6 ? ', ...' : ''}; write one of them`, { field: what, ref, candidates: hits.map((i) => i.id) });
      }
    }
    throw new InputException(`${what} ${JSON.stringify(ref)}: no instrument of that symbol in today's instrument master${this.suggest(text, searched)}`, { field: what, ref });
  }

  /** Resolves several references; the first bad one throws. */
  async resolveAll(refs: readonly string[], what = 'instrument'): Promise<Resolved[]> {
    const out: Resolved[] = [];
    for (const r of refs) out.push(await this.resolve(r, what));
    return out;
  }

  private async load(source: MasterSource): Promise<Loaded> {
    const have = this.loaded.get(source);
    if (have) return have;
    const m = await loadInstrumentMaster(this.broker.client, this.broker.clock, source, cacheDirOf(this.broker));
    const byId = new Map<string, Instrument>();
    const bySymbol = new Map<string, Instrument[]>();
    for (const i of m.instruments) {
      byId.set(i.id, i);
      const list = bySymbol.get(i.tradingSymbol.toUpperCase());
      if (list) list.push(i);
      else bySymbol.set(i.tradingSymbol.toUpperCase(), [i]);
    }
    const l: Loaded = { byId, bySymbol, index: symbolIndex(m.instruments) };
    this.loaded.set(source, l);
    return l;
  }

  /** `; did you mean ...?` with up to five listed symbols that start like `text` (or contain it). */
  private suggest(text: string, where: readonly Loaded[], prefix?: string): string {
    const head = text.slice(0, Math.max(3, Math.min(text.length - 1, 5)));
    const names = new Set<string>();
    for (const l of where) {
      for (const [sym, list] of l.bySymbol) {
        if (names.size >= 5) break;
        if (!sym.startsWith(head) && !sym.includes(text)) continue;
        const i = list.find((x) => prefix === undefined || prefixOf(x) === prefix) ?? (prefix === undefined ? list[0] : undefined);
        if (i) names.add(`${prefixOf(i)}:${i.tradingSymbol}`);
      }
    }
    return names.size > 0 ? `; did you mean ${[...names].join(', ')}?` : ' (see `tarang instruments --search TEXT`)';
  }
}

function prefixOf(i: Instrument): string {
  return i.id.slice(0, i.id.indexOf('_'));
}
