/**
 * Public types of the matching engine: requests in, records and events out. Every price and
 * amount is integer paise; every quantity is units (not lots); instruments are scrip codes
 * (`NSE_2885`). Wire spellings (rupee floats, snake_case) are the server's business.
 */
import type { OrderStatus, OrderType, Product, Side, Validity } from '../../../core/enums.js';
import type { SmartEntryType, SmartLegName } from '../../../core/intents.js';
import type { Paise } from '../../../core/money.js';
import type { SmartStatus, VenueStatus } from './venue-status.js';

// ---------------------------------------------------------------------------------------------
// Market input

/** One price level of the book. */
export interface BookLevel {
  readonly price: Paise;
  readonly qty: number;
}

/** Up to 5 levels a side, best first. */
export interface Depth {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/**
 * How the price reached `ltp`, which decides the price a crossed order fills at:
 * - `tick` (default): a live book snapshot. Resting limits fill at their own limit price; orders
 *   that become marketable now (arrivals, triggered stops, held MARKET orders) take the book
 *   (ask for a buy, bid for a sell, `ltp` without a book).
 * - `open`: a discontinuity (session open, a candle's open, a price override). Everything crossed
 *   fills at `ltp` (limits only when `ltp` is within their limit): gaps fill at the open.
 * - `path`: a candle's path segment; the price passed through every level between the previous
 *   price and `ltp`. Limits fill at their limit price, stops at their trigger price.
 */
export const UpdateMode = { TICK: 'tick', OPEN: 'open', PATH: 'path' } as const;
export type UpdateMode = (typeof UpdateMode)[keyof typeof UpdateMode];

/** A market update for one instrument, from the market model (live) or the candle driver (backtest). */
export interface MarketUpdate {
  readonly instrument: string;
  /** Event time, epoch ms: fills caused by this update carry it. */
  readonly ts: number;
  readonly ltp: Paise;
  readonly bid?: Paise;
  readonly ask?: Paise;
  readonly bidQty?: number;
  readonly askQty?: number;
  /** Full book; when absent the top of book (or `ltp`) is the only level. */
  readonly depth?: Depth;
  /**
   * Quantity that can trade against resting orders in this update, per side (from traded volume,
   * e.g. a candle's volume times a participation rate). Absent: the crossing book quantity when
   * known, otherwise unlimited.
   */
  readonly availableQty?: number;
  readonly mode?: UpdateMode;
  /**
   * The range of the candle an `open`/`path` point belongs to: no fill is priced outside it
   * (slippage stops at the candle's extreme) and the engine treats one outside it as a bug.
   */
  readonly low?: Paise;
  readonly high?: Paise;
  /** Circuit band; orders priced outside it are refused. */
  readonly upperCircuit?: Paise;
  readonly lowerCircuit?: Paise;
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface PlaceOrderRequest {
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly orderType: OrderType;
  /** Required for LIMIT; optional for STOP_LOSS (absent: market once triggered); ignored for MARKET. */
  readonly limitPrice?: Paise;
  /** Required for STOP_LOSS. */
  readonly triggerPrice?: Paise;
  readonly validity: Validity;
  readonly product: Product;
  /** After-market order: accepted only while the session is closed; works from the next open. */
  readonly isAmo?: boolean;
  /** Caller's tag; truncated at 100 characters; reserved values (`TV-TERMINAL`) refused. */
  readonly remarks?: string;
  /** `99999` for regular orders (the default). */
  readonly algoId?: string;
  /** Accepted and recorded; regular orders do not trail (only smart-order legs do). */
  readonly isTsl?: boolean;
  readonly tslStepSize?: Paise;
}

/** New values; absent members keep theirs. `qty` is the new total quantity (more than filled). */
export interface ModifyOrderRequest {
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

export interface SmartLegPrices {
  readonly triggerPrice: Paise;
  /** Absent: the leg executes at market once triggered. */
  readonly limitPrice?: Paise;
}

/** Spec 4.7 / wire-gaps "Smart orders". */
export interface SmartOrderRequest {
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly entryType: SmartEntryType;
  /** LIMIT entry price. */
  readonly limitPrice?: Paise;
  /** TRIGGER entry: fires when the price reaches it (from either side of the market at placement). */
  readonly triggerPrice?: Paise;
  /** TRIGGER entry: limit after the trigger; absent: market. Also the entry price of spec 3.5. */
  readonly triggerLimitPrice?: Paise;
  readonly stopLoss?: SmartLegPrices;
  readonly target?: SmartLegPrices;
  readonly validity: Validity;
  readonly product: Product;
  readonly isTsl?: boolean;
  /** Trailing step, paise; fixed once placed. Required when `isTsl` and trailing is on. */
  readonly tslStepSize?: Paise;
  readonly remarks?: string;
  readonly algoId?: string;
}

/** Changes to one part of a smart order, addressed by that part's own id. */
export interface ModifySmartOrderRequest {
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

// ---------------------------------------------------------------------------------------------
// Records

export type SmartLeg = SmartLegName;

/** One order as the order book shows it (a snapshot; the engine never mutates a record it gave out). */
export interface SimOrder {
  /** `EQ-<digits>`, `DRV-<digits>`, or `GTT-<digits>` for smart-order legs. */
  readonly orderId: string;
  /** Exchange order id (digits), set once the order reaches the (simulated) exchange. */
  readonly exchOrderId: string;
  readonly instrument: string;
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly exchange: string;
  readonly segment: string;
  readonly side: Side;
  readonly product: Product;
  /** As recorded: a MARKET order is recorded as LIMIT at its protection price (wire-gaps). */
  readonly orderType: OrderType;
  /** As asked. */
  readonly requestedOrderType: OrderType;
  readonly validity: Validity;
  readonly isAmo: boolean;
  readonly qty: number;
  readonly limitPrice?: Paise;
  /** For STOP_LOSS orders and smart legs: the live (possibly trailed) trigger. */
  readonly triggerPrice?: Paise;
  readonly filledQty: number;
  /** Sum of qty x price over fills, paise. */
  readonly filledValue: Paise;
  /** filledValue / filledQty (may be fractional paise), 0 before any fill. */
  readonly avgPrice: number;
  readonly status: OrderStatus;
  readonly venueStatus: VenueStatus;
  /** Rejection, cancellation or expiry reason; `''` when none. */
  readonly extraInfo: string;
  readonly remarks: string;
  readonly algoId: string;
  readonly isTsl: boolean;
  readonly tslStepSize?: Paise;
  readonly modifications: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Smart orders: the parent's id (its entry order id) and which part this is. */
  readonly smartOrderId?: string;
  readonly leg?: SmartLeg;
}

/** One execution. */
export interface SimTrade {
  /** Unique per engine (digits). */
  readonly fillId: string;
  readonly tradeSerialNo: number;
  readonly orderId: string;
  readonly exchOrderId: string;
  readonly instrument: string;
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly side: Side;
  readonly product: Product;
  readonly qty: number;
  readonly price: Paise;
  readonly ts: number;
  readonly remarks: string;
  /** Brokerage + statutory charges attributed to this fill, paise. */
  readonly charges: Paise;
}

export interface SmartOrderRecord {
  /** The parent id (also the entry order's id). */
  readonly orderId: string;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly entryType: SmartEntryType;
  readonly status: SmartStatus;
  readonly entry: SimOrder;
  readonly stopLoss?: SimOrder;
  readonly target?: SimOrder;
  readonly isTsl: boolean;
  readonly tslStepSize?: Paise;
  /** Trailing is actually applied (engine option `tsl: 'on'` and `isTsl`). */
  readonly trailing: boolean;
  readonly remarks: string;
  readonly createdAt: number;
  /** Smart orders live up to 365 days; expired at the first session close past this. */
  readonly expiresAt: number;
}

/** Position per (instrument, product), wire-gaps "Positions". */
/**
 * A position closed by its contract's settlement at expiry (the first session after the expiry
 * date): futures at the final settlement price, options at intrinsic value.
 */
export interface SimSettlement {
  readonly instrument: string;
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly product: Product;
  readonly expiry: string;
  /** The trade the settlement stands for: SELL closed a long, BUY a short. */
  readonly side: Side;
  readonly qty: number;
  /** Per unit, paise: S for a future, max(0, S - K) for a call, max(0, K - S) for a put. */
  readonly settlementPrice: Paise;
  /** S: the underlying's last price at the close of the expiry session (absent when not known). */
  readonly underlyingPrice?: Paise;
  /**
   * `underlying-close`: priced off S. `contract-last-price`: S was not known (a contract not
   * priced off an underlying), so the contract settled at its own last price.
   */
  readonly basis: 'underlying-close' | 'contract-last-price';
  /** Realised by the settlement, before charges, paise. */
  readonly realizedPnl: Paise;
  /** STT on an exercised option; 0 otherwise. */
  readonly charges: Paise;
  readonly ts: number;
}

export interface SimPosition {
  readonly instrument: string;
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly exchange: string;
  readonly segment: string;
  readonly product: Product;
  /** Signed: positive long. */
  readonly netQty: number;
  /** Average price of the open quantity, paise (fractional allowed); 0 when flat. */
  readonly avgPrice: number;
  /** Cost of the open quantity, paise (signed like netQty). */
  readonly openValue: Paise;
  readonly buyQty: number;
  readonly buyValue: Paise;
  readonly sellQty: number;
  readonly sellValue: Paise;
  readonly dayBuyQty: number;
  readonly dayBuyValue: Paise;
  readonly daySellQty: number;
  readonly daySellValue: Paise;
  readonly realizedPnl: Paise;
  /** At the last price seen; 0 without one. */
  readonly unrealizedPnl: Paise;
  readonly lastPrice?: Paise;
  readonly expiry?: string;
  readonly optionType?: string;
  readonly strike?: Paise;
}

/** Equity holding, wire-gaps "Holdings". Bought today = t1, earlier = dp (T+1 settlement at the next open). */
export interface SimHolding {
  readonly instrument: string;
  readonly securityId: string;
  readonly tradingSymbol: string;
  readonly totalQty: number;
  /** Quantity sold today or blocked by open sell orders. */
  readonly usedQty: number;
  readonly avgPrice: number;
  readonly t1Qty: number;
  readonly t1AvgPrice: number;
  readonly dpQty: number;
  readonly dpAvgPrice: number;
}

/** Spec 2.2 funds, paise. */
export interface SimFunds {
  readonly sodBalance: Paise;
  readonly pledgeReceived: Paise;
  readonly pledgeRemained: Paise;
  readonly detailedAvlBalance: {
    readonly optionSell: Paise;
    readonly future: Paise;
    readonly optionBuy: Paise;
    readonly commOptionBuy: Paise;
    readonly eqMis: Paise;
    readonly eqCnc: Paise;
    readonly eqMtf: Paise;
  };
  readonly withdrawalBalance: Paise;
  readonly fundsAdded: Paise;
  readonly fundsWithdrawn: Paise;
  readonly realizedPnl: Paise;
  readonly unrealizedPnl: Paise;
  readonly brokerage: Paise;
  readonly eqCharges: Paise;
  readonly fnoCharges: Paise;
  /** Not in the spec, exposed for risk and tests: free for new orders, and blocked. */
  readonly available: Paise;
  readonly usedMargin: Paise;
}

export interface MarginQuery {
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  /** Paise; for a MARKET order pass the last price. */
  readonly price: Paise;
  readonly product: Product;
}

/** Statutory charges, paise (wire-gaps "Margin" `charges`). */
export interface ChargeBreakdown {
  readonly brokerage: Paise;
  readonly stt: Paise;
  readonly exchangeCharges: Paise;
  readonly stampDuty: Paise;
  readonly sebiTurnoverCharges: Paise;
  readonly gst: Paise;
  /** Everything but brokerage. */
  readonly totalCharges: Paise;
}

/** wire-gaps "Margin" response, paise. */
export interface SimMarginResult {
  readonly totalMargin: Paise;
  readonly spanMargin: Paise;
  readonly exposureMargin: Paise;
  readonly availableBalance: Paise;
  readonly insufficientBalance: Paise;
  readonly brokerage: Paise;
  readonly charges: ChargeBreakdown;
}

// ---------------------------------------------------------------------------------------------
// Results

export interface PlaceOrderResult {
  readonly orderId: string;
  readonly venueStatus: VenueStatus;
  readonly order: SimOrder;
  /**
   * Set when the order was recorded as FAILED (insufficient funds, circuit band, ...). The live
   * service answers such a placement with an OrderException envelope; the server may do the same.
   */
  readonly rejection?: { readonly errorType: 'OrderException'; readonly message: string };
}

/** A placement's answer without the order's snapshot (`MatchingEngine.placeOrderAck`). */
export interface PlaceOrderAck {
  readonly orderId: string;
  readonly venueStatus: VenueStatus;
  /** The reason the order was recorded as FAILED (an OrderException on the wire), else undefined. */
  readonly rejection: string | undefined;
}

export interface ModifyOrderResult {
  readonly orderId: string;
  /** `MODIFIED` (wire-gaps); the record keeps its working status. */
  readonly venueStatus: VenueStatus;
  readonly order: SimOrder;
}

export interface CancelOrderResult {
  readonly orderId: string;
  readonly venueStatus: VenueStatus;
  readonly order: SimOrder;
}

export interface SmartOrderResult {
  readonly orderId: string;
  /** `CREATED`. */
  readonly status: SmartStatus;
  readonly smart: SmartOrderRecord;
}

// ---------------------------------------------------------------------------------------------
// Events

/**
 * What the engine tells its listeners, synchronously and in order, during the call that caused
 * it. The server turns these into WebSocket pushes; the backtester puts them on the bus.
 */
export type SimEvent =
  | { readonly type: 'order'; readonly ts: number; readonly order: SimOrder }
  | { readonly type: 'fill'; readonly ts: number; readonly trade: SimTrade; readonly order: SimOrder }
  | { readonly type: 'position'; readonly ts: number; readonly position: SimPosition }
  | { readonly type: 'smart'; readonly ts: number; readonly smart: SmartOrderRecord };

export type SimListener = (event: SimEvent) => void;
