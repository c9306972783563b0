/** `tarang account profile|funds|holdings|positions|orders|trades`: the account as the broker sees it. */
import type { Command } from 'commander';
import { keyValues, print, rupees, table, withBroker, withConnection, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { formatIst } from '../../core/time.js';

const rs = (n: number | undefined) => (n === undefined ? '' : n.toFixed(2));

export function register(program: Command): void {
  const account = program.command('account').description('read the broker account: profile, funds, holdings, positions, orders, trades');

  withConnection(account.command('profile').description('user profile (spec 2.1)')).action(async (f: ConnectionFlags) =>
    withBroker(f, async (b) => {
      const p = await b.client.profile();
      print(f, p, () => keyValues(p));
    }),
  );

  withConnection(account.command('funds').description('balances, P&L and charges (spec 2.2), rupees')).action(async (f: ConnectionFlags) =>
    withBroker(f, async (b) => {
      const x = await b.client.funds();
      print(f, x, () => keyValues({ ...x, available: x.available }));
    }),
  );

  withConnection(account.command('holdings').description('equity holdings in the demat account')).action(async (f: ConnectionFlags) =>
    withBroker(f, async (b) => {
      const rows = await b.client.holdings();
      print(f, rows, () => table(rows.map((h) => ({ symbol: h.symbol, security_id: h.securityId, qty: h.qty, used: h.usedQty, t1: h.t1Qty, avg_price: rupees(h.avgPrice) }))));
    }),
  );

  withConnection(account.command('positions').description('open positions')).action(async (f: ConnectionFlags) =>
    withBroker(f, async (b) => {
      const rows = await b.client.positions();
      print(f, rows, () =>
        table(rows.map((p) => ({ symbol: p.symbol, security_id: p.securityId, product: p.product, net_qty: p.netQty, avg_price: rs(p.avgPrice), buy_qty: p.buyQty, sell_qty: p.sellQty, realized: rs(p.realizedProfit) }))),
      );
    }),
  );

  withConnection(account.command('orders').description("the day's order book")).action(async (f: ConnectionFlags) =>
    withBroker(f, async (b) => {
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
    }),
  );

  withConnection(account.command('trades').description("the day's trade book"))
    .option('--segment <segment>', 'EQUITY or DERIVATIVE')
    .action(async (f: ConnectionFlags & { segment?: string }) =>
      withBroker(f, async (b) => {
        const seg = f.segment?.toUpperCase();
        const rows = await b.client.tradeBook(seg === 'EQUITY' || seg === 'DERIVATIVE' ? seg : undefined);
        print(f, rows, () =>
          table(rows.map((t) => ({ fill_id: t.fillId, time: t.ts ? formatIst(t.ts).slice(11, 19) : '', order_id: t.orderId, scrip: t.scripCode, side: t.side, qty: t.qty, price: rupees(t.price), tag: t.remarks }))),
        );
      }),
    );
}
