/** What `tarang account profile|funds|holdings|positions|orders|trades` do (declared in ../commands/account.ts). */
import { keyValues, print, rupeeAmount, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import type { Funds } from '../../adapters/broker/schemas/account.js';
import { formatIst } from '../../core/time.js';

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
    print(f, rows, () =>
      table(rows.map((p) => ({ symbol: p.symbol, security_id: p.securityId, product: p.product, net_qty: p.netQty, avg_price: rupeeAmount(p.avgPrice), buy_qty: p.buyQty, sell_qty: p.sellQty, realized: rupeeAmount(p.realizedProfit) }))),
    );
  });
}

export async function orders(f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const rows = await b.client.orderBook();
    print(f, rows, () =>
      table(
        rows.map((o) => ({
          order_id: o.orderId,
          time: o.createdAt ? formatIst(o.createdAt).slice(11, 19) : '',
          symbol: o.name,
          side: o.side,
          type: o.orderType,
          qty: o.qty,
          price: rupees(o.price),
          filled: o.filledQty,
          avg: rupees(o.avgPrice),
          status: o.venueStatus,
          tag: o.remarks,
          reason: o.reason,
        })),
      ),
    );
  });
}

export async function trades(f: ConnectionFlags & { segment?: string }): Promise<void> {
  await withBroker(f, async (b) => {
    const seg = f.segment?.toUpperCase();
    const rows = await b.client.tradeBook(seg === 'EQUITY' || seg === 'DERIVATIVE' ? seg : undefined);
    print(f, rows, () =>
      table(rows.map((t) => ({ fill_id: t.fillId, time: t.ts ? formatIst(t.ts).slice(11, 19) : '', order_id: t.orderId, scrip: t.scripCode, side: t.side, qty: t.qty, price: rupees(t.price), tag: t.remarks }))),
    );
  });
}
