/**
 * Brokerage and statutory charges per fill. The account books them (spec 2.2 `brokerage`,
 * `eq_charges`, `fno_charges`) and the margin calculator quotes them (wire-gaps "Margin"). The
 * backtester may plug in its own presets through the same `ChargeCalculator` shape.
 */
import type { Product, Side } from '../../../core/enums.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { ChargeBreakdown } from './types.js';

export interface ChargeInput {
  readonly instrument: Instrument;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly product: Product;
}

export type ChargeCalculator = (fill: ChargeInput) => ChargeBreakdown;

export const ZERO_CHARGES: ChargeBreakdown = Object.freeze({
  brokerage: 0,
  stt: 0,
  exchangeCharges: 0,
  stampDuty: 0,
  sebiTurnoverCharges: 0,
  gst: 0,
  totalCharges: 0,
});

export const noCharges: ChargeCalculator = () => ZERO_CHARGES;

/** Rates as fractions of turnover (premium turnover for options). */
export interface IndianChargeRates {
  /** Flat brokerage per fill, paise (the lower of this and `brokerageRate` x turnover applies). */
  readonly brokeragePerFill: Paise;
  readonly brokerageRate: number;
  /** Equity delivery trades pay no brokerage at many discount brokers; this one charges the flat fee. */
  readonly sttDelivery: number;
  readonly sttIntradaySell: number;
  readonly sttFuturesSell: number;
  readonly sttOptionsSell: number;
  readonly exchangeEquity: number;
  readonly exchangeFutures: number;
  readonly exchangeOptions: number;
  readonly sebiRate: number;
  readonly stampDelivery: number;
  readonly stampIntraday: number;
  readonly stampFutures: number;
  readonly stampOptions: number;
  readonly gstRate: number;
}

/** NSE schedule as published for FY 2024-25 (checked 2024-10-01: options STT 0.1%, futures 0.02%). */
export const INDIAN_CHARGE_RATES: IndianChargeRates = Object.freeze({
  brokeragePerFill: 2000,
  brokerageRate: 0.0005,
  sttDelivery: 0.001,
  sttIntradaySell: 0.00025,
  sttFuturesSell: 0.0002,
  sttOptionsSell: 0.001,
  exchangeEquity: 0.0000297,
  exchangeFutures: 0.0000173,
  exchangeOptions: 0.0003503,
  sebiRate: 0.000001,
  stampDelivery: 0.00015,
  stampIntraday: 0.00003,
  stampFutures: 0.00002,
  stampOptions: 0.00003,
  gstRate: 0.18,
});

/** Indian retail charges. Amounts are rounded to the nearest paisa per component. */
export function indianCharges(rates: IndianChargeRates = INDIAN_CHARGE_RATES): ChargeCalculator {
  return ({ instrument, side, qty, price, product }) => {
    const turnover = qty * price;
    const kind = instrument.kind;
    const isOption = kind === 'OPTIDX' || kind === 'OPTSTK';
    const isFuture = kind === 'FUTIDX' || kind === 'FUTSTK';
    const sell = side === 'SELL';
    const buy = !sell;
    const brokerage = Math.round(Math.min(rates.brokeragePerFill, turnover * rates.brokerageRate));
    let stt: number;
    let exch: number;
    let stamp: number;
    if (isOption) {
      stt = sell ? turnover * rates.sttOptionsSell : 0;
      exch = turnover * rates.exchangeOptions;
      stamp = buy ? turnover * rates.stampOptions : 0;
    } else if (isFuture) {
      stt = sell ? turnover * rates.sttFuturesSell : 0;
      exch = turnover * rates.exchangeFutures;
      stamp = buy ? turnover * rates.stampFutures : 0;
    } else if (product === 'CNC') {
      stt = turnover * rates.sttDelivery;
      exch = turnover * rates.exchangeEquity;
      stamp = buy ? turnover * rates.stampDelivery : 0;
    } else {
      stt = sell ? turnover * rates.sttIntradaySell : 0;
      exch = turnover * rates.exchangeEquity;
      stamp = buy ? turnover * rates.stampIntraday : 0;
    }
    const sebi = turnover * rates.sebiRate;
    const r = { stt: Math.round(stt), exch: Math.round(exch), stamp: Math.round(stamp), sebi: Math.round(sebi) };
    const gst = Math.round((brokerage + r.exch + r.sebi) * rates.gstRate);
    return {
      brokerage,
      stt: r.stt,
      exchangeCharges: r.exch,
      stampDuty: r.stamp,
      sebiTurnoverCharges: r.sebi,
      gst,
      totalCharges: r.stt + r.exch + r.stamp + r.sebi + gst,
    };
  };
}

/**
 * STT on an option exercised at expiry: 0.125% of the settlement (intrinsic) value, paid by the
 * holder (Finance Act schedule, unchanged by the 2024 budget that raised the sale rates).
 */
export const STT_OPTIONS_EXERCISED = 0.00125;

/**
 * Charges on a position settled at expiry. `fill` describes the settlement as the trade that closes
 * the position: `side` closes it, `price` is the settlement price per unit. Nothing trades on the
 * exchange, so there is no brokerage, exchange fee, stamp duty, SEBI fee or GST: only STT on an
 * in-the-money option the holder exercises (a long closed by the settlement, price > 0). Futures
 * settling at expiry and short options assigned pay none; an option expiring worthless pays none.
 */
export function indianSettlementCharges(sttExercised: number = STT_OPTIONS_EXERCISED): ChargeCalculator {
  return ({ instrument, side, qty, price }) => {
    const exercised = (instrument.kind === 'OPTIDX' || instrument.kind === 'OPTSTK') && side === 'SELL' && price > 0;
    if (!exercised) return ZERO_CHARGES;
    const stt = Math.round(qty * price * sttExercised);
    return { ...ZERO_CHARGES, stt, totalCharges: stt };
  };
}
