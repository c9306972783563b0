/** What `tarang quote` does (declared in ../commands/quote.ts). */
import { print, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { fullQuotes, ltpQuotes } from '../../adapters/broker/helpers/quotes.js';
import { InputException } from '../../adapters/broker/errors.js';
import { parseScripCode } from '../../core/instruments.js';

export async function quote(codes: string[], f: ConnectionFlags & { ltp?: boolean }): Promise<void> {
  const list = codes.flatMap((c) => c.split(',')).map((c) => c.trim().toUpperCase().replace(':', '_')).filter(Boolean);
  const bad = list.filter((c) => !parseScripCode(c));
  if (bad.length) throw new InputException(`not scrip codes: ${bad.join(', ')} (expected e.g. NSE_2885)`, { field: 'codes' });
  await withBroker(f, async (b) => {
    if (f.ltp) {
      const r = await ltpQuotes(b.client, list);
      print(f, r, () => table(list.filter((c) => r.quotes[c]).map((c) => ({ code: c, ltp: rupees(r.quotes[c]!.ltp) }))) + invalidLine(r.invalid));
      return;
    }
    const r = await fullQuotes(b.client, list);
    print(f, r, () =>
      table(
        list
          .filter((c) => r.quotes[c])
          .map((c) => {
            const q = r.quotes[c]!;
            return { code: c, ltp: rupees(q.ltp), change: rupees(q.change), pct: q.changePct?.toFixed(2), open: rupees(q.open), high: rupees(q.high), low: rupees(q.low), prev_close: rupees(q.prevClose), volume: q.volume, bid: rupees(q.depth?.bids[0]?.price), ask: rupees(q.depth?.asks[0]?.price) };
          }),
      ) + invalidLine(r.invalid),
    );
  });
}

function invalidLine(invalid: readonly string[]): string {
  return invalid.length ? `refused by the broker: ${invalid.join(', ')}\n` : '';
}
