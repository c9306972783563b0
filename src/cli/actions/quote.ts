/** What `tarang quote` does (declared in ../commands/quote.ts). */
import { print, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { fullQuotes, ltpQuotes } from '../../adapters/broker/helpers/quotes.js';
import { InstrumentNames } from '../instrument-names.js';

export async function quote(refs: string[], f: ConnectionFlags & { ltp?: boolean }): Promise<void> {
  const list = refs.flatMap((c) => c.split(',')).map((c) => c.trim()).filter(Boolean);
  await withBroker(f, async (b) => {
    const names = new InstrumentNames(b);
    const codes = [...new Set((await names.resolveAll(list)).map((r) => r.code))];
    const symbol = (c: string): string => names.symbolOf(c);
    if (f.ltp) {
      const r = await ltpQuotes(b.client, codes);
      print(f, withSymbols(r, symbol), () => table(codes.filter((c) => r.quotes[c]).map((c) => ({ symbol: symbol(c), code: c, ltp: rupees(r.quotes[c]!.ltp) }))) + invalidLine(r.invalid));
      return;
    }
    const r = await fullQuotes(b.client, codes);
    print(f, withSymbols(r, symbol), () =>
      table(
        codes
          .filter((c) => r.quotes[c])
          .map((c) => {
            const q = r.quotes[c]!;
            return { symbol: symbol(c), code: c, ltp: rupees(q.ltp), change: rupees(q.change), pct: q.changePct?.toFixed(2), open: rupees(q.open), high: rupees(q.high), low: rupees(q.low), prev_close: rupees(q.prevClose), volume: q.volume, bid: rupees(q.depth?.bids[0]?.price), ask: rupees(q.depth?.asks[0]?.price) };
          }),
      ) + invalidLine(r.invalid),
    );
  });
}

/** The JSON form: each quote with its trading symbol. */
function withSymbols<Q extends object, R extends { quotes: Record<string, Q> }>(r: R, symbol: (c: string) => string): Omit<R, 'quotes'> & { quotes: Record<string, Q & { symbol: string }> } {
  return { ...r, quotes: Object.fromEntries(Object.entries(r.quotes).map(([c, q]) => [c, { ...q, symbol: symbol(c) }])) };
}

function invalidLine(invalid: readonly string[]): string {
  return invalid.length ? `refused by the broker: ${invalid.join(', ')}\n` : '';
}
