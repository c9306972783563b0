/** What `tarang order place|modify|cancel|book|trades` do (declared in ../commands/order.ts). */
import { print, withBroker, limited, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { InputException } from '../../adapters/broker/errors.js';
import type { Broker } from '../../adapters/broker/broker.js';
import type { OrderRecord } from '../../adapters/broker/schemas/orders.js';
import { BrokerVenue } from '../../adapters/broker/venue.js';
import { legName } from '../../adapters/broker/venue-codec.js';
import { DEFAULT_LOST_ANSWER_POLICY } from '../../adapters/execution/lost-answer-policy.js';
import { manualTag } from '../../adapters/execution/tags.js';
import type { WriteOutcome } from '../../adapters/execution/venue.js';
import { isTerminalStatus, type OrderType, type Product, type Side, type Validity } from '../../core/enums.js';
import type { Intent, ModifyIntent, PlaceIntent, SmartIntent, SmartLegName } from '../../core/intents.js';
import { parsePaise, type Paise } from '../../core/money.js';
import { defaultStateDir } from '../../core/state-dir.js';
import { MarginModel } from '../../risk/margin-model.js';
import { confirmOrder } from '../confirm.js';
import { InstrumentNames } from '../instrument-names.js';
import { ModificationCounts } from '../modification-counts.js';
import { OrderDenied, OrderOutcomeUnsettled, OrderRejected } from '../order-errors.js';
import { manualRisk, orderKey, readAccount, riskConfigFromFile, type AccountView } from '../order-risk.js';
import { bookTable, inr, recordCode, summaryLines, tradeCode, tradesTable } from '../order-view.js';

interface WriteFlags extends ConnectionFlags {
  readonly yes?: boolean;
}

interface PlaceFlags extends WriteFlags {
  readonly price?: string;
  readonly trigger?: string;
  readonly market?: boolean;
  readonly product: string;
  readonly validity: string;
  readonly amo?: boolean;
  readonly stopLoss?: string;
  readonly stopLossLimit?: string;
  readonly target?: string;
  readonly targetLimit?: string;
}

interface ModifyFlags extends WriteFlags {
  readonly qty?: string;
  readonly price?: string;
  readonly trigger?: string;
  readonly leg?: string;
}


function choice<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const v = value.toUpperCase().replace(/-/g, '_');
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new InputException(`${flag}: expected ${allowed.join(' or ')}, got ${JSON.stringify(value)}`, { field: flag });
}

function rupeesFlag(value: string | undefined, flag: string): Paise | undefined {
  if (value === undefined) return undefined;
  let p: Paise;
  try {
    // \u20B9: ₹ (kept ASCII for the CLI bundle, bin/cli-bundle.js).
    p = parsePaise(value.replace(/[\u20B9,]/g, ''), flag);
  } catch {
    throw new InputException(`${flag}: expected rupees such as 1640.50, got ${JSON.stringify(value)}`, { field: flag });
  }
  if (p <= 0) throw new InputException(`${flag}: expected a price above zero, got ${JSON.stringify(value)}`, { field: flag });
  return p;
}

function wholeNumber(value: string, what: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) throw new InputException(`${what}: expected a whole number above zero, got ${JSON.stringify(value)}`, { field: what });
  return n;
}

function denyIfRisk(risk: { check(i: Intent): { code: string; reason: string } | null }, intent: Intent): void {
  const d = risk.check(intent);
  if (d) throw new OrderDenied(`order denied by the risk check ${d.code}: ${d.reason}; nothing was sent`, { denial: d.code, reason: d.reason });
}

/** The broker's time (its last `Date` header) for risk's time-of-day rules; the wall's before any answer. */
function brokerNow(b: Broker): number {
  return b.http.serverNow() ?? b.clock.now();
}

/**
 * After a lost answer: reads the order book on the engine's lost-answer schedule (the venue may
 * show a change a moment late) until `settled` holds for the order `find` picks; returns the last
 * record seen and whether it settled. Nothing is ever sent again from here.
 */
async function lookInBook(b: Broker, find: (book: readonly OrderRecord[]) => OrderRecord | undefined, settled: (o: OrderRecord) => boolean): Promise<{ record: OrderRecord | undefined; settled: boolean }> {
  let record: OrderRecord | undefined;
  for (const ms of DEFAULT_LOST_ANSWER_POLICY.delaysMs) {
    await b.clock.sleep(ms);
    try {
      record = find(await b.client.orderBook());
    } catch {
      continue;
    }
    if (record && settled(record)) return { record, settled: true };
  }
  return { record, settled: false };
}

/** Looks for a placement by its tag after a lost answer. */
async function settlePlacement(b: Broker, tag: string): Promise<OrderRecord | undefined> {
  return (await lookInBook(b, (book) => book.find((o) => o.remarks === tag), () => true)).record;
}

function refused(what: string, o: Extract<WriteOutcome, { status: 'rejected' }>): OrderRejected {
  return new OrderRejected(`the broker refused the ${what}: ${o.reason}`, { reason: o.reason, ...(o.errorCode ? { brokerCode: o.errorCode } : {}) });
}

/** The order a person names: by id, a smart order's id, or its tag (a smart order's part by `leg`). */
function findOrder(book: readonly OrderRecord[], ref: string, leg: SmartLegName | undefined): OrderRecord {
  const smart = book.filter((o) => o.smartOrderId === ref || (o.smartOrderId !== undefined && o.remarks === ref));
  if (smart.length > 0) {
    const want = leg ?? 'entry';
    const part = smart.find((o) => (legName(o.leg) ?? 'entry') === want);
    if (!part) throw new InputException(`order ${ref}: the smart order has no ${want} part (it has ${smart.map((o) => legName(o.leg) ?? 'entry').join(', ')})`, { field: 'order' });
    return part;
  }
  const byId = book.find((o) => o.orderId === ref);
  if (byId) return byId;
  const byTag = book.filter((o) => o.remarks === ref);
  if (byTag.length === 1) return byTag[0]!;
  if (byTag.length > 1) throw new InputException(`order ${ref}: ${byTag.length} orders carry this tag (${byTag.map((o) => o.orderId).join(', ')}); give the order id`, { field: 'order' });
  throw new InputException(`order ${ref}: not in today's order book (see \`tarang order book\`)`, { field: 'order' });
}

function describeOrder(o: OrderRecord, symbol: string): string {
  const code = recordCode(o) ?? '';
  const price = o.price !== undefined ? ` at ${inr(o.price)}` : '';
  return `${o.side ?? ''} ${o.qty} ${symbol || o.name || code} (${code})${price}, ${o.orderType ?? ''} ${o.product ?? ''}, ${o.venueStatus}${o.filledQty ? `, ${o.filledQty} filled` : ''}`;
}

export async function place(sideText: string, qtyText: string, ref: string, f: PlaceFlags): Promise<void> {
  const side = choice<Side>(sideText, ['BUY', 'SELL'], 'side');
  const qty = wholeNumber(qtyText, 'qty');
  const product = choice<Product>(f.product, ['INTRADAY', 'CNC', 'MARGIN'], '--product');
  const validity = choice<Validity>(f.validity, ['DAY', 'IOC'], '--validity');
  const price = rupeesFlag(f.price, '--price');
  const trigger = rupeesFlag(f.trigger, '--trigger');
  const sl = rupeesFlag(f.stopLoss, '--stop-loss');
  const slLimit = rupeesFlag(f.stopLossLimit, '--stop-loss-limit');
  const tg = rupeesFlag(f.target, '--target');
  const tgLimit = rupeesFlag(f.targetLimit, '--target-limit');
  if (f.market && (price !== undefined || trigger !== undefined)) throw new InputException('--market takes no --price or --trigger', { field: 'market' });
  if (!f.market && price === undefined && trigger === undefined) throw new InputException('give --price for a LIMIT order, --trigger for a stop-loss, or --market', { field: 'price' });
  if (slLimit !== undefined && sl === undefined) throw new InputException('--stop-loss-limit needs --stop-loss', { field: 'stop-loss-limit' });
  if (tgLimit !== undefined && tg === undefined) throw new InputException('--target-limit needs --target', { field: 'target-limit' });
  const smart = sl !== undefined || tg !== undefined;
  if (smart && f.amo) throw new InputException('--amo is for regular orders; a smart order (--stop-loss/--target) cannot be an AMO', { field: 'amo' });
  const orderType: OrderType = f.market ? 'MARKET' : trigger !== undefined ? 'STOP_LOSS' : 'LIMIT';

  await withBroker(f, async (b) => {
    const names = new InstrumentNames(b);
    const { code, instrument } = await names.resolve(ref);
    const venue = new BrokerVenue(b);
    const view: AccountView = await readAccount(b, venue, code);
    let at = b.clock.now();
    let tag = manualTag(at);
    while (view.book.some((o) => o.tag === tag)) tag = manualTag(++at);
    const base = { id: tag, strategyId: 'manual', instrument: code, side, qty, validity, product };
    const intent: PlaceIntent | SmartIntent = smart
      ? {
          ...base,
          kind: 'smart',
          entryType: f.market ? 'MARKET' : trigger !== undefined ? 'TRIGGER' : 'LIMIT',
          ...(trigger !== undefined ? { triggerPrice: trigger, ...(price !== undefined ? { triggerLimitPrice: price } : {}) } : price !== undefined ? { limitPrice: price } : {}),
          ...(sl !== undefined ? { stopLoss: { triggerPrice: sl, ...(slLimit !== undefined ? { limitPrice: slLimit } : {}) } } : {}),
          ...(tg !== undefined ? { target: { triggerPrice: tg, ...(tgLimit !== undefined ? { limitPrice: tgLimit } : {}) } } : {}),
        }
      : { ...base, kind: 'place', orderType, ...(price !== undefined ? { limitPrice: price } : {}), ...(trigger !== undefined ? { triggerPrice: trigger } : {}), ...(f.amo ? { isAmo: true } : {}) };
    denyIfRisk(manualRisk(view, names, brokerNow(b), riskConfigFromFile(f.config)), intent);

    const ltp = view.quote?.ltp;
    const valuePrice = price ?? trigger ?? ltp;
    let margin: string | undefined;
    if (valuePrice !== undefined) {
      try {
        const m = await venue.margin({ instrument: code, side, qty, price: valuePrice, product });
        margin = `${inr(m.required)} (the broker's figure${m.available !== undefined ? `; available ${inr(m.available)}` : ''})`;
      } catch {
        if (instrument) margin = `${inr(new MarginModel().required(instrument, side, qty, valuePrice, product).total)} (tarang's estimate; the broker's margin call failed)`;
      }
    }
    const symbol = instrument?.tradingSymbol ?? code;
    const what = smart ? 'smart order' : 'order';
    const summary = summaryLines([
      ['order', `${side} ${qty} ${symbol} (${code})`],
      ['type', smart ? `smart, ${(intent as SmartIntent).entryType} entry` : orderType],
      ['price', price !== undefined ? inr(price) : f.market ? `market (last ${inr(ltp) ?? 'unknown'})` : undefined],
      ['trigger', inr(trigger)],
      ['stop-loss', sl !== undefined ? `${inr(sl)}${slLimit !== undefined ? `, limit ${inr(slLimit)}` : ', market once triggered'}` : undefined],
      ['target', tg !== undefined ? `${inr(tg)}${tgLimit !== undefined ? `, limit ${inr(tgLimit)}` : ', market once triggered'}` : undefined],
      ['product', `${product}, ${validity}${f.amo ? ', after market' : ''}`],
      ['value', valuePrice !== undefined ? `${inr(valuePrice * qty)}${price === undefined && trigger === undefined ? ' at the last price' : ''}` : undefined],
      ['margin', margin],
      ['tag', tag],
    ]);
    await confirmOrder(`${what} to place:\n${summary}`, `Place this ${what}?`, f.yes, `${what} not placed`);

    const outcome = smart
      ? await venue.placeSmart({ ...(intent as SmartIntent), tag })
      : await venue.place({ tag, instrument: code, side, qty, orderType, ...(price !== undefined ? { limitPrice: price } : {}), ...(trigger !== undefined ? { triggerPrice: trigger } : {}), validity, product, isAmo: f.amo ?? false });
    if (outcome.status === 'rejected') throw refused(what, outcome);
    let orderId: string;
    let status: string | undefined;
    let note = '';
    if (outcome.status === 'accepted') {
      orderId = outcome.orderId;
      status = outcome.venueStatus;
    } else {
      process.stderr.write(`the broker's answer was lost (${outcome.reason}); looking for tag ${tag} in the order book (nothing is sent again)\n`);
      const found = await settlePlacement(b, tag);
      if (!found) {
        throw new OrderOutcomeUnsettled(`the answer to the ${what} was lost and the order book shows no order tagged ${tag} after ${DEFAULT_LOST_ANSWER_POLICY.delaysMs.length} looks; it was most likely not placed, but check \`tarang order book --tag ${tag}\` before placing it again`, { tag });
      }
      orderId = found.smartOrderId ?? found.orderId;
      status = found.venueStatus;
      note = ' (its answer was lost; found in the order book by its tag)';
    }
    const result = { placed: true, order_id: orderId, tag, status, instrument: code, symbol, side, qty, order_type: smart ? 'SMART' : orderType, product, validity };
    print(f, result, () => `placed ${what} ${orderId}${note}: ${side} ${qty} ${symbol} (${code})${price !== undefined ? ` at ${inr(price)}` : trigger !== undefined ? ` on a trigger at ${inr(trigger)}` : ' at market'}, ${product}; status ${status || 'unknown'}; tag ${tag}\n`);
  });
}

export async function modify(ref: string, f: ModifyFlags): Promise<void> {
  const qty = f.qty === undefined ? undefined : wholeNumber(f.qty, '--qty');
  const price = rupeesFlag(f.price, '--price');
  const trigger = rupeesFlag(f.trigger, '--trigger');
  if (qty === undefined && price === undefined && trigger === undefined) throw new InputException('nothing to change: give --qty, --price or --trigger', { field: 'qty' });
  const legText = (f.leg ?? 'entry').toLowerCase().replace('_', '-');
  const leg: SmartLegName | undefined = legText === 'entry' ? 'entry' : legText === 'stop-loss' || legText === 'sl' ? 'stopLoss' : legText === 'target' ? 'target' : undefined;
  if (!leg) throw new InputException(`--leg: expected entry, stop-loss or target, got ${JSON.stringify(f.leg)}`, { field: 'leg' });

  await withBroker(f, async (b) => {
    const names = new InstrumentNames(b);
    const book = await b.client.orderBook();
    const o = findOrder(book, ref, leg);
    const code = recordCode(o);
    if (!code) throw new InputException(`order ${o.orderId}: the order book does not say its instrument`, { field: 'order' });
    await names.prepare([code]);
    const symbol = names.symbolOf(code);
    if (o.status && isTerminalStatus(o.status)) throw new InputException(`order ${o.orderId} is ${o.venueStatus}; only a working order can be modified`, { field: 'order' });
    const venue = new BrokerVenue(b);
    const counts = new ModificationCounts(defaultStateDir());
    const local = await counts.read();
    const view: AccountView = { ...(await readAccount(b, venue, code)), modifications: (id) => local[id]?.n ?? 0 };
    const intent: ModifyIntent = { kind: 'modify', id: `${orderKey(o.orderId)}:modify`, strategyId: 'manual', target: orderKey(o.orderId), ...(qty !== undefined ? { qty } : {}), ...(price !== undefined ? { limitPrice: price } : {}), ...(trigger !== undefined ? { triggerPrice: trigger } : {}) };
    denyIfRisk(manualRisk(view, names, brokerNow(b), riskConfigFromFile(f.config)), intent);
    const spent = Math.max(o.modifications ?? 0, local[o.orderId]?.n ?? 0);

    const summary = summaryLines([
      ['order', describeOrder(o, symbol)],
      ['part', o.smartOrderId !== undefined ? (legName(o.leg) ?? 'entry') : undefined],
      ['qty', qty !== undefined ? `${o.qty} -> ${qty}` : undefined],
      ['price', price !== undefined ? `${inr(o.price) ?? 'none'} -> ${inr(price)}` : undefined],
      ['trigger', trigger !== undefined ? `${inr(o.slTriggerPrice) ?? 'none'} -> ${inr(trigger)}` : undefined],
      ['modifications', `${spent} made so far; this is number ${spent + 1} of at most 25`],
    ]);
    await confirmOrder(`modification:\n${summary}`, `Modify order ${o.orderId}?`, f.yes, `order ${o.orderId} not modified`);

    const smartPart = o.smartOrderId !== undefined;
    const change = { ...(qty !== undefined ? { qty } : {}), ...(price !== undefined ? { limitPrice: price } : {}), ...(trigger !== undefined ? { triggerPrice: trigger } : {}) };
    const outcome = smartPart
      ? await venue.modifySmart({ tag: o.remarks ?? '', orderId: legName(o.leg) && legName(o.leg) !== 'entry' ? o.orderId : o.smartOrderId!, instrument: code, leg: legName(o.leg) ?? 'entry', ...change })
      : await venue.modify({ tag: o.remarks ?? '', orderId: o.orderId, instrument: code, orderType: (o.orderType as OrderType | undefined) ?? 'LIMIT', qty: qty ?? o.qty, ...(price !== undefined ? { limitPrice: price } : o.price !== undefined && o.orderType !== 'MARKET' ? { limitPrice: o.price } : {}), ...(trigger !== undefined ? { triggerPrice: trigger } : {}) });
    if (outcome.status === 'rejected') throw refused('modification', outcome);
    let venueStatus = outcome.status === 'accepted' ? outcome.venueStatus : undefined;
    if (outcome.status === 'unknown') {
      process.stderr.write(`the broker's answer was lost (${outcome.reason}); reading the order book to see whether the change arrived (nothing is sent again)\n`);
      const shows = (r: OrderRecord): boolean => (qty === undefined || r.qty === qty) && (price === undefined || r.price === price) && (trigger === undefined || r.slTriggerPrice === trigger);
      const seen = await lookInBook(b, (rows) => rows.find((r) => r.orderId === o.orderId), shows);
      if (!seen.settled) {
        throw new OrderOutcomeUnsettled(`the answer to the modification was lost and the order book does not show the change (${outcome.reason}); the order now reads: ${seen.record ? describeOrder(seen.record, symbol) : 'unreadable'}. Check \`tarang order book\` before modifying again`, { orderId: o.orderId });
      }
      venueStatus = seen.record?.venueStatus;
    }
    const n = await counts.add(o.orderId, b.clock.now());
    const total = Math.max(n, spent + 1);
    print(f, { modified: true, order_id: o.orderId, status: venueStatus, modifications: total }, () => `modified order ${o.orderId} (${symbol || code}): status ${venueStatus || 'unknown'}; ${total} of at most 25 modifications used\n`);
  });
}

export async function cancel(ref: string, f: WriteFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const names = new InstrumentNames(b);
    const book = await b.client.orderBook();
    const o = findOrder(book, ref, undefined);
    const code = recordCode(o);
    if (!code) throw new InputException(`order ${o.orderId}: the order book does not say its instrument`, { field: 'order' });
    await names.prepare([code]);
    const symbol = names.symbolOf(code);
    if (o.status && isTerminalStatus(o.status)) throw new InputException(`order ${o.orderId} is ${o.venueStatus}; there is nothing to cancel`, { field: 'order' });
    const smartId = o.smartOrderId;
    await confirmOrder(`to cancel:\n${summaryLines([['order', describeOrder(o, symbol)], ['smart order', smartId]])}`, `Cancel order ${smartId ?? o.orderId}?`, f.yes, `order ${smartId ?? o.orderId} not cancelled`);
    const venue = new BrokerVenue(b);
    const outcome = smartId !== undefined ? await venue.cancelSmart({ tag: o.remarks ?? '', orderId: smartId, instrument: code, leg: 'entry' }) : await venue.cancel({ tag: o.remarks ?? '', orderId: o.orderId, instrument: code });
    if (outcome.status === 'rejected') throw refused('cancel', outcome);
    let venueStatus = outcome.status === 'accepted' ? outcome.venueStatus : undefined;
    if (outcome.status === 'unknown') {
      process.stderr.write(`the broker's answer was lost (${outcome.reason}); reading the order book to see whether the cancel arrived (nothing is sent again)\n`);
      const seen = await lookInBook(b, (rows) => rows.find((r) => r.orderId === o.orderId), (r) => r.status !== undefined && isTerminalStatus(r.status));
      if (!seen.settled) {
        throw new OrderOutcomeUnsettled(`the answer to the cancel was lost and the order book does not show the order ended (${outcome.reason}); the order now reads: ${seen.record ? describeOrder(seen.record, symbol) : 'unreadable'}. Check \`tarang order book\``, { orderId: o.orderId });
      }
      venueStatus = seen.record?.venueStatus;
    }
    print(f, { cancelled: true, order_id: smartId ?? o.orderId, status: venueStatus }, () => `cancelled order ${smartId ?? o.orderId} (${symbol || code}): status ${venueStatus || 'unknown'}\n`);
  });
}

export async function book(f: ConnectionFlags & { open?: boolean; tag?: string; limit?: string }): Promise<void> {
  const limit = f.limit === undefined ? undefined : wholeNumber(f.limit, '--limit');
  await withBroker(f, async (b) => {
    const all = await b.client.orderBook();
    const rows = all.filter((o) => (!f.open || !o.status || !isTerminalStatus(o.status)) && (f.tag === undefined || o.remarks === f.tag));
    const shown = limited([...rows].sort((x, y) => (y.createdAt ?? 0) - (x.createdAt ?? 0)), limit, 'orders');
    const names = new InstrumentNames(b);
    await names.prepare(shown.map(recordCode));
    print(f, shown.map((o) => ({ ...o, code: recordCode(o), symbol: names.symbolOf(recordCode(o)) || o.name })), () => bookTable(shown, names));
  });
}

export async function trades(f: ConnectionFlags & { order?: string; limit?: string }): Promise<void> {
  const limit = f.limit === undefined ? undefined : wholeNumber(f.limit, '--limit');
  await withBroker(f, async (b) => tradesCommand(b, f, f.order, limit));
}

/** `order trades` and `account trades`: the trade book with symbols (codes from the book when a trade lacks one). */
export async function tradesCommand(b: Broker, f: { json?: boolean }, orderId: string | undefined, limit: number | undefined, segment?: 'EQUITY' | 'DERIVATIVE'): Promise<void> {
  const [trades, book] = await Promise.all([b.client.tradeBook(segment), b.client.orderBook()]);
  const rows = trades.filter((t) => orderId === undefined || t.orderId === orderId).sort((x, y) => (y.ts ?? 0) - (x.ts ?? 0));
  const shown = limited(rows, limit, 'trades');
  const names = new InstrumentNames(b);
  const byOrder = new Map(book.map((o) => [o.orderId, o]));
  const codes = shown.map((t) => tradeCode(t, byOrder));
  await names.prepare(codes);
  print(f, shown.map((t, i) => ({ ...t, code: codes[i], symbol: names.symbolOf(codes[i]) })), () => tradesTable(shown, book, names));
}
