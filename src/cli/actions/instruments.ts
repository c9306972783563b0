/** What `tarang instruments` does (declared in ../commands/instruments.ts). */
import { cacheDirOf, print, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { loadInstrumentMaster } from '../../adapters/broker/helpers/instrument-master.js';
import { InputException } from '../../adapters/broker/errors.js';
import { MasterSource } from '../../core/instrument-master.js';

export async function instruments(f: ConnectionFlags & { source: string; search?: string; limit: string }): Promise<void> {
  const sources = Object.values(MasterSource) as string[];
  if (!sources.includes(f.source)) throw new InputException(`--source: expected one of ${sources.join(', ')}, got ${JSON.stringify(f.source)}`, { field: 'source' });
  const limit = Number(f.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new InputException(`--limit: expected a positive whole number, got ${JSON.stringify(f.limit)}`, { field: 'limit' });
  await withBroker(f, async (b) => {
    const m = await loadInstrumentMaster(b.client, b.clock, f.source as MasterSource, cacheDirOf(b));
    const needle = f.search?.toUpperCase();
    const rows = needle ? m.instruments.filter((i) => i.symbol.toUpperCase().includes(needle) || i.tradingSymbol.toUpperCase().includes(needle)) : m.instruments;
    print(f, rows.slice(0, limit), () => {
      const shown = rows.slice(0, limit).map((i) => ({ id: i.id, symbol: i.tradingSymbol, kind: i.kind, lot: i.lotSize, tick: rupees(i.tickSize), expiry: i.expiry, strike: rupees(i.strike), opt: i.optionType }));
      const tail = `${rows.length} instrument(s)${rows.length > limit ? `, first ${limit} shown (--limit)` : ''}${m.errors.length ? `; ${m.errors.length} unreadable row(s) skipped` : ''}${m.fromCache ? ' [cached]' : ''}\n`;
      return table(shown) + tail;
    });
  });
}
