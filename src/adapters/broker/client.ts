/**
 * A typed call for every endpoint of spec section 4. Shapes live in schemas/<resource>.ts; this
 * file says which path takes which query or body and what comes back.
 *
 * Writes (place, modify, cancel, smart) carry no idempotency key on the wire. This is a transport:
 * a write is sent once, and one that loses its answer (timeout, reset, 5xx, garbled 2xx) comes
 * back as a value, `{ kind: 'unknown', reason, ref }`, never as a guess and never sent again. What
 * the broker really did is read from the order book by the execution layer, the one owner of lost
 * answers (src/adapters/execution/lost-answers.ts). A refusal (4xx, local validation) throws its
 * coded BrokerError like every other call.
 */
import type { z } from 'zod';
import type { Interval } from '../../core/candles.js';
import type { Logger } from '../../core/log.js';
import type { MasterSource } from '../../core/instrument-master.js';
import { DataException, InputException, NetworkException } from './errors.js';
import { endpointName, type BrokerHttp, type Query, type RequestSpec } from './http.js';
import { FundsSchema, ProfileSchema, type Funds, type Profile } from './schemas/account.js';
import {
  ContractPageSchema,
  ContractSearchSchema,
  ExpiredContractPageSchema,
  ExpiredContractsSchema,
  ExpiredSearchSchema,
  ExpiriesSchema,
  contractSearchQuery,
  type ContractPage,
  type ContractSearchInput,
  type ExpiredContract,
  type ExpiredContractPage,
  type ExpiredSearchInput,
  type InstrumentTypeFilter,
} from './schemas/contracts.js';
import { historicalDataSchema, type WireCandle } from './schemas/historical.js';
import { MarginSchema, marginBody, type Margin, type MarginRequest } from './schemas/margin.js';
import { ChainExpiriesSchema, ChainSymbolRowsSchema, GreeksListSchema, OptionChainSchema, type Greeks, type OptionChain, type OptionChainQuery } from './schemas/option-chain.js';
import {
  OrderAckSchema,
  OrderBookSchema,
  OrderLookupSchema,
  PlaceOrderRequestSchema,
  TradesSchema,
  modifyOrderBody,
  placeOrderBody,
  type ModifyOrderRequest,
  type OrderAck,
  type OrderRecord,
  type OrderSegment,
  type PlaceOrderRequest,
  type Trade,
} from './schemas/orders.js';
import { HoldingsSchema, PositionsSchema, type Holding, type Position, type PositionProduct, type PositionSegment } from './schemas/portfolio.js';
import { CircuitQuotesSchema, DepthQuotesSchema, FullQuotesSchema, LtpQuotesSchema, type CircuitQuote, type FullQuote, type LtpQuote, type MarketDepth } from './schemas/quotes.js';
import { SmartOrderAckSchema, smartModifyBody, smartOrderBody, type SmartModifyRequest, type SmartOrderAck, type SmartOrderRequest } from './schemas/smart-orders.js';
import { zodIssueLines } from '../../core/zod-issues.js';
import { algoIdFor, exchangeSegment, type RegisteredAlgoIds } from '../../risk/rules/retail-algo.js';

export const MAX_QUOTE_CODES = 1000;
export const MAX_HISTORICAL_CODES = 5;
export const MAX_EXPIRED_SYMBOLS = 50;

/**
 * What a write came back with: the broker's answer, or `unknown` when the answer was lost (the
 * write may or may not have been carried out). `ref` names what was written: the `remarks` tag of
 * a placement, the order id of a modify or cancel.
 */
export type WriteAnswer<A> = { readonly kind: 'answered'; readonly ack: A } | { readonly kind: 'unknown'; readonly endpoint: string; readonly reason: string; readonly ref: string };

export interface BrokerClientOptions {
  readonly http: BrokerHttp;
  readonly logger: Logger;
  /** Algo ids registered with the exchanges; an order without its own carries its exchange's (retail-algo.ts). */
  readonly algoIds?: RegisteredAlgoIds;
}

export class BrokerClient {
  readonly http: BrokerHttp;
  private readonly logger: Logger;
  private readonly algoIds: RegisteredAlgoIds;

  constructor(options: BrokerClientOptions) {
    this.http = options.http;
    this.logger = options.logger;
    this.algoIds = options.algoIds ?? {};
  }

  // ---- account (4.1)

  profile(): Promise<Profile> {
    return this.get('/user/profile', ProfileSchema);
  }

  funds(): Promise<Funds> {
    return this.get('/funds', FundsSchema);
  }

  // ---- instruments and quotes (4.2)

  /** The raw instrument master CSV of a source (spec 2.3). */
  async instrumentMaster(source: MasterSource): Promise<string> {
    const res = await this.http.request({ method: 'GET', path: '/market/instruments', query: { source } });
    if (res.json !== undefined && !res.text.includes(',')) {
      throw new DataException(`GET /market/instruments: expected CSV, got JSON`, { endpoint: 'GET /market/instruments', status: res.status });
    }
    return res.text;
  }

  quotesFull(codes: readonly string[]): Promise<Record<string, FullQuote>> {
    return this.get('/market/quotes/full', FullQuotesSchema, { 'scrip-codes': quoteCodes(codes) });
  }

  /** Full quotes read for their circuit bands only (see CircuitQuoteSchema). */
  quotesCircuits(codes: readonly string[]): Promise<Record<string, CircuitQuote>> {
    return this.get('/market/quotes/full', CircuitQuotesSchema, { 'scrip-codes': quoteCodes(codes) });
  }

  quotesLtp(codes: readonly string[]): Promise<Record<string, LtpQuote>> {
    return this.get('/market/quotes/ltp', LtpQuotesSchema, { 'scrip-codes': quoteCodes(codes) });
  }

  quotesDepth(codes: readonly string[]): Promise<Record<string, MarketDepth>> {
    return this.get('/market/quotes/mkt', DepthQuotesSchema, { 'scrip-codes': quoteCodes(codes) });
  }

  /** One historical call: up to 5 codes, [startMs, endMs). Paging over ranges: see candles.ts. */
  historical(interval: Interval, codes: readonly string[], startMs: number, endMs: number): Promise<Record<string, WireCandle[]>> {
    if (codes.length === 0 || codes.length > MAX_HISTORICAL_CODES) throw new InputException(`historical: 1 to ${MAX_HISTORICAL_CODES} scrip codes a call, got ${codes.length}`, {});
    return this.get(`/market/historical/${interval}`, historicalDataSchema(codes), { 'scrip-codes': codes.join(','), start_time: startMs, end_time: endMs });
  }

  /** Candles of expired contracts by trading symbol (4.9, announced). */
  historicalExpired(interval: Interval, symbols: readonly string[], startMs: number, endMs: number, segment: 'NFO' | 'BFO' = 'NFO'): Promise<Record<string, WireCandle[]>> {
    if (symbols.length === 0 || symbols.length > MAX_EXPIRED_SYMBOLS) throw new InputException(`historicalExpired: 1 to ${MAX_EXPIRED_SYMBOLS} symbols a call, got ${symbols.length}`, {});
    return this.get(`/market/historical/expired/${interval}`, historicalDataSchema(symbols), { 'trading-symbols': symbols.join(','), start_time: startMs, end_time: endMs, segment });
  }

  // ---- option chain (4.3, 4.4)

  optionChain(q: OptionChainQuery): Promise<OptionChain> {
    return this.get('/market/option-chain', OptionChainSchema, {
      exchange: q.exchange,
      segment: q.segment,
      'underlying-scrip': q.underlyingScrip,
      expiry: q.expiry,
      strike_count: q.strikeCount,
    });
  }

  /** Announced utility chain (`DD-MMM-YYYY` expiry). */
  optionChainRows(token: string, count: number, expiry: string): Promise<z.output<typeof ChainSymbolRowsSchema>> {
    return this.get('/option-chain', ChainSymbolRowsSchema, { token, count: String(count), expiry });
  }

  optionChainExpiries(token: string): Promise<string[]> {
    return this.get('/option-chain-symbols', ChainExpiriesSchema, { token });
  }

  greeks(tokens: readonly string[]): Promise<Greeks[]> {
    return this.http.call({ method: 'POST', path: '/greeks', body: tokens }, GreeksListSchema);
  }

  // ---- contracts and expiries (4.5)

  searchContracts(input: ContractSearchInput, page = 1): Promise<ContractPage> {
    const s = this.validate(ContractSearchSchema, input, 'searchContracts');
    return this.get('/market/instruments/search', ContractPageSchema, contractSearchQuery(s, page));
  }

  expiries(underlying: string): Promise<string[]> {
    return this.get('/market/instruments/expiries', ExpiriesSchema, { underlying, segment: 'DERIVATIVE' });
  }

  searchExpiredContracts(input: ExpiredSearchInput, page = 1): Promise<ExpiredContractPage> {
    const s = this.validate(ExpiredSearchSchema, input, 'searchExpiredContracts');
    return this.get('/market/instruments/expired/search', ExpiredContractPageSchema, { ...contractSearchQuery(s, page), expiry_from: s.expiryFrom, expiry_to: s.expiryTo });
  }

  expiredExpiries(underlying: string, expiryFrom: string, expiryTo: string): Promise<string[]> {
    return this.get('/market/instruments/expired/expiries', ExpiriesSchema, { underlying, segment: 'DERIVATIVE', expiry_from: expiryFrom, expiry_to: expiryTo });
  }

  expiredContracts(underlying: string, expiry: string, instrumentType?: InstrumentTypeFilter): Promise<ExpiredContract[]> {
    return this.get('/market/instruments/expired/contracts', ExpiredContractsSchema, { underlying, segment: 'DERIVATIVE', expiry, instrument_type: instrumentType });
  }

  // ---- orders (4.6)

  orderBook(): Promise<OrderRecord[]> {
    return this.get('/order-book', OrderBookSchema);
  }

  /** One order's record (`GET /order`). */
  async order(orderId: string, segment: OrderSegment): Promise<OrderRecord> {
    const rows = await this.get('/order', OrderLookupSchema, { order_id: orderId, segment });
    const r = rows.find((x) => x.orderId === orderId) ?? rows[0];
    if (!r) throw new DataException(`GET /order: no record for ${orderId}`, { endpoint: 'GET /order', orderId });
    return r;
  }

  trades(orderId: string, segment: OrderSegment): Promise<Trade[]> {
    return this.get(`/trades/${encodeURIComponent(orderId)}`, TradesSchema, { segment });
  }

  tradeBook(segment?: OrderSegment): Promise<Trade[]> {
    return this.get('/trade-book', TradesSchema, { segment });
  }

  async placeOrder(input: PlaceOrderRequest): Promise<WriteAnswer<OrderAck>> {
    const valid = this.validate(PlaceOrderRequestSchema, input, 'placeOrder') as PlaceOrderRequest;
    const req: PlaceOrderRequest = { ...valid, algoId: valid.algoId ?? algoIdFor(valid.exchange, this.algoIds) };
    const spec: RequestSpec = { method: 'POST', path: '/order', body: placeOrderBody(req), write: true, exchangeSegment: exchangeSegment(req.exchange, req.segment) };
    return this.write(spec, OrderAckSchema, req.remarks);
  }

  async modifyOrder(m: ModifyOrderRequest): Promise<WriteAnswer<OrderAck>> {
    if (!m.orderId) throw new InputException('modifyOrder: orderId is required', {});
    if (m.qty === undefined && m.limitPrice === undefined && m.triggerPrice === undefined) throw new InputException(`modifyOrder ${m.orderId}: nothing to change (qty, limitPrice or triggerPrice)`, {});
    return this.write({ method: 'POST', path: '/order/modify', body: modifyOrderBody(m), write: true }, OrderAckSchema, m.orderId);
  }

  async cancelOrder(orderId: string, segment: OrderSegment): Promise<WriteAnswer<OrderAck>> {
    return this.write({ method: 'POST', path: '/order/cancel', body: { order_id: orderId, segment }, write: true }, OrderAckSchema, orderId);
  }

  // ---- smart orders (4.7)

  async placeSmartOrder(o: SmartOrderRequest): Promise<WriteAnswer<SmartOrderAck>> {
    if (!o.remarks || o.remarks.length > 100) throw new InputException('placeSmartOrder: remarks (the client tag, 1 to 100 characters) is required', { field: 'remarks' });
    const body = smartOrderBody({ ...o, algoId: o.algoId ?? algoIdFor(o.exchange, this.algoIds) });
    return this.write({ method: 'POST', path: '/smart/order', body, write: true, exchangeSegment: exchangeSegment(o.exchange, o.segment) }, SmartOrderAckSchema, o.remarks);
  }

  /** Modifies one part (parent entry or a leg, by its own id). */
  async modifySmartOrder(m: SmartModifyRequest): Promise<WriteAnswer<OrderAck>> {
    return this.write({ method: 'POST', path: '/smart/order/modify', body: smartModifyBody(m), write: true }, OrderAckSchema, m.orderId);
  }

  async cancelSmartOrder(orderId: string, segment: OrderSegment): Promise<WriteAnswer<OrderAck>> {
    return this.write({ method: 'POST', path: '/smart/order/cancel', body: { order_id: orderId, segment }, write: true }, OrderAckSchema, orderId);
  }

  // ---- portfolio and margin (4.8)

  holdings(): Promise<Holding[]> {
    return this.get('/portfolio/holdings', HoldingsSchema);
  }

  positions(segment?: PositionSegment, product?: PositionProduct): Promise<Position[]> {
    return this.get('/portfolio/positions', PositionsSchema, { segment, product });
  }

  margin(req: MarginRequest): Promise<Margin> {
    const body = marginBody(req);
    return this.get('/margin', MarginSchema, body as Query);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  // ---- internals

  private get<T extends z.ZodType>(path: string, schema: T, query?: Query): Promise<z.output<T>> {
    return this.http.call({ method: 'GET', path, ...(query ? { query } : {}) }, schema);
  }

  private validate<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
    const r = schema.safeParse(input);
    if (r.success) return r.data;
    const issues = zodIssueLines(r.error, { root: '(input)' });
    throw new InputException(`${what}: ${issues.join('; ')}`, { issues });
  }

  /** Sends a write once: its answer, or `unknown` when the answer was lost; a refusal throws. */
  private async write<T extends z.ZodType>(spec: RequestSpec, schema: T, ref: string): Promise<WriteAnswer<z.output<T>>> {
    try {
      return { kind: 'answered', ack: await this.http.call(spec, schema) };
    } catch (e) {
      if (!isLostAnswer(e)) throw e;
      const endpoint = endpointName(spec);
      const reason = e instanceof Error ? e.message : String(e);
      this.logger.warn({ endpoint, ref, err: { code: (e as NetworkException | DataException).code, message: reason } }, 'write answer lost; its outcome is unknown until the order book is read');
      return { kind: 'unknown', endpoint, reason, ref };
    }
  }
}

/** A write's answer is lost when the transport failed or a 2xx did not decode. */
export function isLostAnswer(e: unknown): boolean {
  return (e instanceof NetworkException && e.context.status === undefined) || (e instanceof NetworkException && (e.context.status ?? 0) >= 500) || (e instanceof DataException && (e.context.status ?? 0) >= 200 && (e.context.status ?? 0) < 300);
}

function quoteCodes(codes: readonly string[]): string {
  if (codes.length === 0) throw new InputException('quotes: at least one scrip code is needed', {});
  if (codes.length > MAX_QUOTE_CODES) throw new InputException(`quotes: at most ${MAX_QUOTE_CODES} codes a call, got ${codes.length} (use quotesBatched)`, {});
  return codes.join(',');
}
