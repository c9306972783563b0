/**
 * What the HTTP and WebSocket shells need from the simulated venue, in tarang's units (paise,
 * scrip codes). `venue-assembly.ts` builds it from the matching engine, the market model and the
 * data services; the shells never reach past this interface, so either side can change shape
 * behind a one-file adapter.
 */
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type {
  CancelOrderResult,
  MarginQuery,
  ModifyOrderRequest,
  ModifyOrderResult,
  ModifySmartOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
  SimEvent,
  SimFunds,
  SimHolding,
  SimMarginResult,
  SimOrder,
  SimPosition,
  SimSettlement,
  SimTrade,
  SmartOrderRecord,
  SmartOrderRequest,
  SmartOrderResult,
} from '../matching/types.js';
import type { ApiResult, RawQuery } from '../universe/api-result.js';
import type { MarketQuote, MarketTick } from '../market/types.js';
import type { MasterSource } from '../universe/types.js';

export type { MarketQuote, MarketTick };

export type TickListener = (t: MarketTick) => void;

export interface VenueData {
  masterCsv(source: MasterSource): string;
  historical(interval: string, q: RawQuery): ApiResult<unknown>;
  expiredHistorical(interval: string, q: RawQuery): ApiResult<unknown>;
  optionChain(q: RawQuery): ApiResult<unknown>;
  utilityChain(body: unknown): ApiResult<unknown>;
  utilityExpiries(body: unknown): ApiResult<unknown>;
  greeks(body: unknown): ApiResult<unknown>;
  searchContracts(q: RawQuery): ApiResult<unknown>;
  listExpiries(q: RawQuery): ApiResult<unknown>;
  searchExpiredContracts(q: RawQuery): ApiResult<unknown>;
  listExpiredExpiries(q: RawQuery): ApiResult<unknown>;
  expiredContracts(q: RawQuery): ApiResult<unknown>;
}

export interface SimVenue {
  readonly data: VenueData;
  /** MARKET orders are limited at last price +/- this % (market-protection.ts). */
  readonly marketProtectionPct: number;
  instrument(scripCode: string): Instrument | undefined;
  /** A scrip code for a bare security id (control API), preferring `exchange` when given. */
  resolveSecurity(securityId: string, exchange?: string): string | undefined;

  /**
   * Models these instruments now, together (a batch quote): the market models instruments on
   * first touch, and one batch costs far less than the same codes one by one. Unknown codes are
   * ignored.
   */
  prepare(scripCodes: readonly string[]): void;
  quote(scripCode: string): MarketQuote | undefined;
  /** The full quote's `totalBuyQty`/`totalSellQty` of a modelled instrument, cheaply (one per full-mode tick); undefined when not modelled. */
  bookTotals(scripCode: string): { readonly buy: number; readonly sell: number } | undefined;
  /** The latest tick-shaped state (what a fresh WS subscriber gets first). */
  lastTick(scripCode: string): MarketTick | undefined;
  /** Control API: the price jumps to `price` (rounded to tick, clamped to circuits). */
  setPrice(scripCode: string, price: Paise): { ok: true; price: Paise } | { ok: false; message: string };
  /** Every market tick, after the matching engine has seen it. */
  onTick(listener: TickListener): () => void;
  /** Instruments that stopped being quoted (contracts past their expiry, dropped at the next session's open). */
  onDropped(listener: (scripCodes: readonly string[]) => void): () => void;

  placeOrder(req: PlaceOrderRequest): PlaceOrderResult;
  modifyOrder(orderId: string, req: ModifyOrderRequest): ModifyOrderResult;
  cancelOrder(orderId: string): CancelOrderResult;
  order(orderId: string): SimOrder | undefined;
  orders(): readonly SimOrder[];
  trades(): readonly SimTrade[];
  tradesOf(orderId: string): readonly SimTrade[];
  placeSmartOrder(req: SmartOrderRequest): SmartOrderResult;
  modifySmartOrder(id: string, req: ModifySmartOrderRequest): SmartOrderRecord;
  cancelSmartOrder(id: string): SmartOrderRecord;
  smartOrder(id: string): SmartOrderRecord | undefined;
  smartOrders(): readonly SmartOrderRecord[];
  positions(): readonly SimPosition[];
  /** Positions settled at expiry at today's open (control API: not on the broker's wire). */
  settlements(): readonly SimSettlement[];
  holdings(): readonly SimHolding[];
  funds(): SimFunds;
  margin(q: MarginQuery): SimMarginResult;
  onEvent(listener: (e: SimEvent) => void): () => void;

  close(): void;
}
