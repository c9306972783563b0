/**
 * A typed call for every endpoint of spec section 4. Shapes live in schemas/<resource>.ts; this
 * file says which path takes which query or body and what comes back, and makes writes safe:
 *
 * Writes (place, modify, cancel, smart) carry no idempotency key on the wire, so a write that
 * loses its answer (timeout, reset, 5xx, garbled 2xx) is never simply sent again. The client looks
 * in the order book for what the broker really did (placements by their `remarks` tag, modify and
 * cancel by the order's state), on the schedule of its lost-answer policy
 * (src/adapters/execution/lost-answer-policy.ts), and returns that; it sends again only when the
 * book shows the first attempt did nothing, and raises OrderOutcomeUnknown when even that cannot
 * be settled (the execution reconciler then keeps looking by tag).
 */
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Interval } from '../../core/candles.js';
import { isTerminalStatus } from '../../core/enums.js';
import type { Logger } from '../../core/log.js';
import type { MasterSource } from '../../core/instrument-master.js';
import { checksPolicy, lookAfterLostAnswer, type LostAnswerPolicy } from '../execution/lost-answer-policy.js';
import { BrokerError, DataException, InputException, NetworkException, OrderException, OrderOutcomeUnknown } from './errors.js';
import type { BrokerHttp, Query, RequestSpec } from './http.js';
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
import { DepthQuotesSchema, FullQuotesSchema, LtpQuotesSchema, type FullQuote, type LtpQuote, type MarketDepth } from './schemas/quotes.js';
import { SmartOrderAckSchema, smartModifyBody, smartOrderBody, type SmartModifyRequest, type SmartOrderAck, type SmartOrderRequest } from './schemas/smart-orders.js';
import { zodIssueLines } from '../../core/zod-issues.js';
import { algoIdFor, exchangeSegment, type RegisteredAlgoIds } from '../../risk/rules/retail-algo.js';

export const MAX_QUOTE_CODES = 1000;
export const MAX_HISTORICAL_CODES = 5;
export const MAX_EXPIRED_SYMBOLS = 50;

/** The answer of a write, and whether it came from reconciliation rather than the ack. */
export interface WriteResult extends OrderAck {
  /** true when the ack was lost and the result was read from the order book. */
  readonly reconciled: boolean;
}

export interface SmartWriteResult {
  readonly orders: SmartOrderAck;
  readonly reconciled: boolean;
}

/** The lost-answer policy in the shape of checks and a growing interval (see checksPolicy). */
export interface ReconcileOptions {
  /** Order-book looks after a lost answer before concluding the write did nothing. */
  readonly checks: number;
  /** Pause between looks, ms (the broker may show a new order a moment late). */
  readonly intervalMs: number;
}

export interface BrokerClientOptions {
  readonly http: BrokerHttp;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly reconcile?: Partial<ReconcileOptions>;
  /** The lost-answer policy as delays; wins over `reconcile`. Default: 3 looks, at 0, 0.5 and 1.5 s. */
  readonly lostAnswer?: LostAnswerPolicy;
  /** Algo ids registered with the exchanges; an order without its own carries its exchange's (retail-algo.ts). */
  readonly algoIds?: RegisteredAlgoIds;
}

export class BrokerClient {
  readonly http: BrokerHttp;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** When the order book is looked at after a lost write answer (also the venue's smart-order settle). */
  readonly lostAnswer: LostAnswerPolicy;
  private readonly algoIds: RegisteredAlgoIds;

  constructor(options: BrokerClientOptions) {
    this.http = options.http;
    this.clock = options.clock;
    this.logger = options.logger;
    const r = { checks: 3, intervalMs: 500, ...options.reconcile };
    this.lostAnswer = options.lostAnswer ?? checksPolicy(r.checks, r.intervalMs);
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

  /** A placement write: resent after a lost answer only while no order of the day carries its tag. */
  private placementSpec(path: string, body: Record<string, unknown>, remarks: string, exchangeSegment: string): RequestSpec {
    return { method: 'POST', path, body, write: true, exchangeSegment, beforeResend: async () => (await this.findByRemarks(remarks)).length === 0 };
  }

  /** Every order of the day tagged `remarks` (normally one; smart orders have one per leg). */
  async findByRemarks(remarks: string): Promise<OrderRecord[]> {
    return (await this.orderBook()).filter((o) => o.remarks === remarks);
  }

  async placeOrder(input: PlaceOrderRequest): Promise<WriteResult> {
    const valid = this.validate(PlaceOrderRequestSchema, input, 'placeOrder') as PlaceOrderRequest;
    const req: PlaceOrderRequest = { ...valid, algoId: valid.algoId ?? algoIdFor(valid.exchange, this.algoIds) };
    const spec = this.placementSpec('/order', placeOrderBody(req), req.remarks, exchangeSegment(req.exchange, req.segment));
    const settle = async (): Promise<WriteResult | undefined> => {
      const found = await this.findByRemarks(req.remarks);
      const o = found[0];
      if (found.length > 1) this.logger.error({ remarks: req.remarks, orders: found.map((f) => f.orderId) }, 'several orders carry one client tag');
      return o ? { orderId: o.orderId, venueStatus: o.venueStatus, reconciled: true } : undefined;
    };
    return this.writeWithReconcile<WriteResult>('POST /order', () => this.http.call(spec, OrderAckSchema), settle, req.remarks);
  }

  async modifyOrder(m: ModifyOrderRequest): Promise<WriteResult> {
    if (!m.orderId) throw new InputException('modifyOrder: orderId is required', {});
    if (m.qty === undefined && m.limitPrice === undefined && m.triggerPrice === undefined) throw new InputException(`modifyOrder ${m.orderId}: nothing to change (qty, limitPrice or triggerPrice)`, {});
    const spec: RequestSpec = { method: 'POST', path: '/order/modify', body: modifyOrderBody(m), write: true };
    const settle = async (): Promise<WriteResult | undefined> => {
      const o = await this.order(m.orderId, m.segment);
      const applied = (m.qty === undefined || o.qty === m.qty) && (m.limitPrice === undefined || o.price === m.limitPrice) && (m.triggerPrice === undefined || o.slTriggerPrice === undefined || o.slTriggerPrice === m.triggerPrice);
      if (applied) return { orderId: o.orderId, venueStatus: o.venueStatus, reconciled: true };
      if (o.status && isTerminalStatus(o.status)) {
        throw new OrderException(`POST /order/modify: order ${m.orderId} is ${o.venueStatus}; the modification was not applied`, { endpoint: 'POST /order/modify', orderId: m.orderId, brokerMessage: o.reason });
      }
      return undefined;
    };
    return this.writeWithReconcile<WriteResult>('POST /order/modify', () => this.http.call(spec, OrderAckSchema), settle, m.orderId);
  }

  async cancelOrder(orderId: string, segment: OrderSegment): Promise<WriteResult> {
    const spec: RequestSpec = { method: 'POST', path: '/order/cancel', body: { order_id: orderId, segment }, write: true };
    const settle = async (): Promise<WriteResult | undefined> => {
      const o = await this.order(orderId, segment);
      return o.status && isTerminalStatus(o.status) ? { orderId: o.orderId, venueStatus: o.venueStatus, reconciled: true } : undefined;
    };
    return this.writeWithReconcile<WriteResult>('POST /order/cancel', () => this.http.call(spec, OrderAckSchema), settle, orderId);
  }

  // ---- smart orders (4.7)

  async placeSmartOrder(o: SmartOrderRequest): Promise<SmartWriteResult> {
    if (!o.remarks || o.remarks.length > 100) throw new InputException('placeSmartOrder: remarks (the client tag, 1 to 100 characters) is required', { field: 'remarks' });
    const body = smartOrderBody({ ...o, algoId: o.algoId ?? algoIdFor(o.exchange, this.algoIds) });
    const spec = this.placementSpec('/smart/order', body, o.remarks, exchangeSegment(o.exchange, o.segment));
    const settle = async (): Promise<SmartWriteResult | undefined> => {
      const found = await this.findByRemarks(o.remarks);
      if (found.length === 0) return undefined;
      const parent = found.find((f) => f.smartOrderId !== undefined)?.smartOrderId ?? found[0]!.orderId;
      const children = found.filter((f) => f.leg === 'stop_loss' || f.leg === 'stopLoss' || f.leg === 'target').map((f) => ({ orderId: f.orderId, venueStatus: f.venueStatus }));
      return { orders: [{ orderId: parent, venueStatus: found[0]!.venueStatus, children }], reconciled: true };
    };
    return this.writeWithReconcile<SmartWriteResult>('POST /smart/order', async () => ({ orders: await this.http.call(spec, SmartOrderAckSchema), reconciled: false }), settle, o.remarks);
  }

  /** Modifies one part (parent entry or a leg, by its own id). Not resent after a lost answer. */
  async modifySmartOrder(m: SmartModifyRequest): Promise<WriteResult> {
    return this.writeOnce('POST /smart/order/modify', { method: 'POST', path: '/smart/order/modify', body: smartModifyBody(m), write: true });
  }

  async cancelSmartOrder(orderId: string, segment: OrderSegment): Promise<WriteResult> {
    return this.writeOnce('POST /smart/order/cancel', { method: 'POST', path: '/smart/order/cancel', body: { order_id: orderId, segment }, write: true });
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

  /**
   * Smart modify/cancel address one part by id; a lost answer surfaces, and BrokerVenue settles
   * it from the order book with its knowledge of the part and the change (venue.ts, settleSmart).
   */
  private async writeOnce(_endpoint: string, spec: RequestSpec): Promise<WriteResult> {
    const ack = await this.http.call(spec, OrderAckSchema);
    return { ...ack, reconciled: false };
  }

  /**
   * Sends a write; when its answer is lost, settles from the order book: `settle` returns what the
   * broker did, or undefined when the book shows nothing happened. Only a successful look that
   * shows nothing allows sending once more; when the book cannot even be read, the outcome is
   * unknown and nothing is sent again (OrderOutcomeUnknown).
   */
  private async writeWithReconcile<R extends { reconciled: boolean }>(
    endpoint: string,
    send: () => Promise<Omit<R, 'reconciled'> | R>,
    settle: () => Promise<R | undefined>,
    key: string,
  ): Promise<R> {
    for (let round = 1; ; round++) {
      let lost: unknown;
      try {
        const r = await send();
        return { ...r, reconciled: round > 1 } as R;
      } catch (e) {
        if (!isLostAnswer(e)) throw e;
        lost = e;
      }
      this.logger.warn({ endpoint, key, round, err: { code: (lost as BrokerError).code, message: (lost as Error).message } }, 'write answer lost; reconciling through the order book');
      let sawNothing = false;
      let lookError: unknown;
      const found = await lookAfterLostAnswer(this.lostAnswer, (ms) => this.clock.sleep(ms), async (check) => {
        try {
          const f = await settle();
          if (f) {
            this.logger.info({ endpoint, key, check }, 'write reconciled from the order book');
            return f;
          }
          sawNothing = true;
        } catch (e) {
          if (e instanceof OrderException) throw e;
          lookError = e;
          sawNothing = false;
        }
        return undefined;
      });
      if (found) return found;
      if (!sawNothing || round === 2) {
        throw new OrderOutcomeUnknown(
          `${endpoint}: the answer was lost and ${sawNothing ? 'the order book still does not show the write after a second attempt' : 'the order book could not be read'} (${key}); check the order book before acting`,
          { endpoint, key, ...(lookError ? { lookError: (lookError as Error).message } : {}) },
          { cause: lost },
        );
      }
      this.logger.warn({ endpoint, key }, 'order book shows the write did nothing; sending it once more');
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
