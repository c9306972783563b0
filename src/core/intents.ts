/**
 * Intents: what a strategy wants done. Strategies return intents; they never call a broker. The
 * risk layer approves an intent or turns it into a `denied` event; execution turns approved
 * intents into broker calls. Every intent carries its own `id` (unique, also the client tag sent
 * in `remarks` for orders it creates) and the `strategyId` that emitted it. Prices are paise.
 */
import type { OrderType, Product, Side, Validity } from './enums.js';
import type { Paise } from './money.js';

export const IntentKind = {
  PLACE: 'place',
  MODIFY: 'modify',
  CANCEL: 'cancel',
  SMART: 'smart',
  EXIT: 'exit',
} as const;
export type IntentKind = (typeof IntentKind)[keyof typeof IntentKind];

interface IntentBase {
  /** Unique id; for place/smart also the client tag written to the order's `remarks`. */
  readonly id: string;
  readonly strategyId: string;
}

export interface PlaceIntent extends IntentBase {
  readonly kind: 'place';
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly orderType: OrderType;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly validity: Validity;
  readonly product: Product;
  readonly isAmo?: boolean;
}

export interface ModifyIntent extends IntentBase {
  readonly kind: 'modify';
  /** Client tag (id of the place/smart intent) of the order to change. */
  readonly target: string;
  /** For a smart order: which part to change. */
  readonly leg?: SmartLegName;
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

export interface CancelIntent extends IntentBase {
  readonly kind: 'cancel';
  readonly target: string;
  readonly leg?: SmartLegName;
}

export const SmartEntryType = { LIMIT: 'LIMIT', MARKET: 'MARKET', TRIGGER: 'TRIGGER' } as const;
export type SmartEntryType = (typeof SmartEntryType)[keyof typeof SmartEntryType];

export const SmartLegName = { ENTRY: 'entry', STOP_LOSS: 'stopLoss', TARGET: 'target' } as const;
export type SmartLegName = (typeof SmartLegName)[keyof typeof SmartLegName];

export interface SmartLeg {
  readonly triggerPrice: Paise;
  /** Absent: the leg executes at market once triggered. */
  readonly limitPrice?: Paise;
}

/** Entry + optional stop-loss and target legs (OCO once entered), optional trailing stop. */
export interface SmartIntent extends IntentBase {
  readonly kind: 'smart';
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly entryType: SmartEntryType;
  /** LIMIT entry price. */
  readonly limitPrice?: Paise;
  /** TRIGGER entry: trigger price, and optional limit after trigger (spec 3.5 entry price rule). */
  readonly triggerPrice?: Paise;
  readonly triggerLimitPrice?: Paise;
  readonly stopLoss?: SmartLeg;
  readonly target?: SmartLeg;
  /** Trail the stop-loss by this many paise of favourable movement (spec 3.4). */
  readonly trailingStep?: Paise;
  readonly validity: Validity;
  readonly product: Product;
}

/** Flatten the strategy's (or the account's) position in an instrument at market. */
export interface ExitIntent extends IntentBase {
  readonly kind: 'exit';
  readonly instrument: string;
  readonly product?: Product;
  /** Cancel the strategy's open orders in the instrument first (default true). */
  readonly cancelOpenOrders?: boolean;
}

export type Intent = PlaceIntent | ModifyIntent | CancelIntent | SmartIntent | ExitIntent;

/**
 * Who trails a smart order's stop-loss leg: the venue (`is_tsl` is sent) or the engine (it modifies
 * the leg as the price moves and never sends `is_tsl`). Decided by the venue's capabilities; risk
 * depends on it (spec 3.4 refuses `is_tsl` on a TRIGGER parent, but engine trailing is allowed).
 */
export type TrailingMode = 'venue' | 'engine';
