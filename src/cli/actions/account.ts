/** What `tarang account profile|funds|holdings|positions|orders|trades` do (declared in ../commands/account.ts). */
import { keyValues, limited, print, rupeeAmount, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import type { Funds } from '../../adapters/broker/schemas/account.js';
import { InputException } from '../../adapters/broker/errors.js';
import { scripFor } from '../../adapters/broker/venue-codec.js';
import { InstrumentNames } from '../instrument-names.js';
import { bookTable, recordCode } from '../order-view.js';
import { tradesCommand } from './order.js';

function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1) throw new InputException(`--limit: expected a whole number above zero, got ${JSON.stringify(text)}`, { field: 'limit' });
  return n;
}

/** Words for the broker's balance keys (detailed_avl_balance); an unknown key is shown as sent. */
const BALANCE_NAMES: Readonly<Record<string, string>> = {
  eq_cnc: 'equity delivery (CNC)',
  eq_mis: 'equity intraday (MIS)',
  eq_mtf: 'equity margin trading (MTF)',
  future: 'futures',
  option_buy: 'option buying',
  option_sell: 'option selling',
  comm_option_buy: 'commodity option buying',
};

/** The funds as a person reads them: rupees, Indian grouping, the per-segment balance as a table. */
export function fundsText(x: Funds): string {
  const head = keyValues({
    'opening balance': rupeeAmount(x.sodBalance),
    'withdrawable': rupeeAmount(x.withdrawalBalance),
    'funds added': rupeeAmount(x.fundsAdded),
    'funds withdrawn': rupeeAmount(x.fundsWithdrawn),
    'pledge received': rupeeAmount(x.pledgeReceived),
    'pledge remaining': rupeeAmount(x.pledgeRemained),
    'realized P&L': rupeeAmount(x.realizedPnl),
    'unrealized P&L': rupeeAmount(x.unrealizedPnl),
    'brokerage': rupeeAmount(x.brokerage),
    'equity charges': rupeeAmount(x.eqCharges),
    'F&O charges': rupeeAmount(x.fnoCharges),
  });
  const rows = Object.entries(x.available).map(([k, v]) => ({ 'available for': BALANCE_NAMES[k] ?? k, amount: rupeeAmount(v) }));
  return `${head}\n${table(rows)}`;
}

export async function profile(f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const p = await b.client.profile();
    print(f, p, () => keyValues(p));
  });
}

export async function funds(f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const x = await b.client.funds();
    print(f, x, () => fundsText(x));
  });
}

export async function holdings(f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const rows = await b.client.holdings();
    print(f, rows, () => table(rows.map((h) => ({ symbol: h.symbol, security_id: h.securityId, qty: h.qty, used: h.usedQty, t1: h.t1Qty, avg_price: rupees(h.avgPrice) }))));
  });
}

export async function positions(f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const rows = await b.client.positions();
    const codes = rows.map((p) => scripFor(p.exchange, p.segment, p.securityId));
    const names = new InstrumentNames(b);
    await names.prepare(codes);
    const symbol = (i: number): string => names.symbolOf(codes[i]) || (rows[i]!.symbol ?? '');
    print(f, rows.map((p, i) => ({ ...p, code: codes[i], symbol: symbol(i) })), () =>
      table(rows.map((p, i) => ({ symbol: symbol(i), code: codes[i], product: p.product, net_qty: p.netQty, avg_price: rupeeAmount(p.avgPrice), buy_qty: p.buyQty, sell_qty: p.sellQty, realized: rupeeAmount(p.realizedProfit) }))),
    );
  });
}

export async function orders(f: ConnectionFlags & { limit?: string }): Promise<void> {
  await withBroker(f, async (b) => {
    const all = [...(await b.client.orderBook())].sort((x, y) => (y.createdAt ?? 0) - (x.createdAt ?? 0));
    const rows = limited(all, limitOf(f.limit), 'orders');
    const names = new InstrumentNames(b);
    await names.prepare(rows.map(recordCode));
    print(f, rows.map((o) => ({ ...o, code: recordCode(o), symbol: names.symbolOf(recordCode(o)) || o.name })), () => bookTable(rows, names));
  });
}

export async function trades(f: ConnectionFlags & { segment?: string; limit?: string }): Promise<void> {
  await withBroker(f, async (b) => {
    const seg = f.segment?.toUpperCase();
    if (seg !== undefined && seg !== 'EQUITY' && seg !== 'DERIVATIVE') throw new InputException(`--segment: expected EQUITY or DERIVATIVE, got ${JSON.stringify(f.segment)}`, { field: 'segment' });
    await tradesCommand(b, f, undefined, limitOf(f.limit), seg);
  });
}
