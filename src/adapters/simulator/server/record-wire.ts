/**
 * The matching engine's records in the broker's wire shapes (wire-gaps "Orders", "Portfolio,
 * margin", spec 2.2, 2.8). Prices in order and trade records are rupee strings with `""` for
 * fields that do not apply, as observed on the live service; portfolio, funds and margin figures
 * are numbers (rupees). Timestamps are epoch ms.
 */
import { formatRupees, toRupees, type Paise } from '../../../core/money.js';
import type { SimFunds, SimHolding, SimMarginResult, SimOrder, SimPosition, SimSettlement, SimTrade, SmartOrderRecord } from '../matching/types.js';
import { marketProtectionNote } from '../../../risk/rules/market-protection.js';

function px(p: Paise | undefined): string {
  return p === undefined ? '' : formatRupees(p);
}

/** Average prices may be fractional paise: rupees rounded to 4 decimals. */
function avg(p: number): number {
  return Math.round(p * 100) / 10_000;
}

function avgStr(p: number): string {
  return p === 0 ? '0.00' : String(Number((p / 100).toFixed(4)));
}

function legTriggers(o: SimOrder, smart: SmartOrderRecord | undefined): Record<string, string> {
  const out = { sl_trigger_price: '', sl_limit_price: '', tgt_trigger_price: '', tgt_limit_price: '' };
  if (smart) {
    out.sl_trigger_price = px(smart.stopLoss?.triggerPrice);
    out.sl_limit_price = px(smart.stopLoss?.limitPrice);
    out.tgt_trigger_price = px(smart.target?.triggerPrice);
    out.tgt_limit_price = px(smart.target?.limitPrice);
  } else if (o.triggerPrice !== undefined) {
    // A STOP_LOSS order: its trigger is the stop-loss trigger of the record.
    out.sl_trigger_price = px(o.triggerPrice);
    out.sl_limit_price = px(o.limitPrice);
  }
  return out;
}

/**
 * An order-book record. `protectionPct`: a MARKET order says it was placed as a LIMIT at its
 * protection price (`market_protection`), as the broker converts it.
 */
export function orderRecordWire(o: SimOrder, smart?: SmartOrderRecord, protectionPct?: number): Record<string, unknown> {
  const protectedMarket = protectionPct !== undefined && o.requestedOrderType === 'MARKET' && o.limitPrice !== undefined;
  return {
    id: o.orderId,
    exch_order_id: o.exchOrderId,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    security_id: o.securityId,
    name: o.tradingSymbol,
    txn_type: o.side,
    exchange: o.exchange,
    segment: o.segment,
    product: o.product,
    order_type: o.orderType,
    validity: o.validity,
    is_amo: o.isAmo,
    requested_qty: o.qty,
    requested_price: px(o.limitPrice),
    traded_qty: o.filledQty,
    traded_price: o.filledQty > 0 ? avgStr(o.avgPrice) : '',
    ...legTriggers(o, smart),
    status: o.venueStatus,
    extra_info: o.extraInfo,
    remarks: o.remarks,
    algo_id: o.algoId,
    is_tsl: o.isTsl,
    tsl_step_size: px(o.tslStepSize),
    modifications: o.modifications,
    ...(o.smartOrderId !== undefined ? { smart_order_id: o.smartOrderId, leg: o.leg } : {}),
    ...(protectedMarket ? { market_protection: marketProtectionNote(o.limitPrice!, protectionPct), market_protection_pct: protectionPct } : {}),
  };
}

export function tradeWire(t: SimTrade): Record<string, unknown> {
  return {
    fill_id: t.fillId,
    order_id: t.orderId,
    exch_order_id: t.exchOrderId,
    security_id: t.securityId,
    name: t.tradingSymbol,
    txn_type: t.side,
    product: t.product,
    quantity: t.qty,
    price: px(t.price),
    trade_date: t.ts,
    remarks: t.remarks,
  };
}

export function tradeBookWire(t: SimTrade): Record<string, unknown> {
  return { ...tradeWire(t), trade_serial_no: t.tradeSerialNo, scrip_code: t.instrument };
}

export function smartRecordWire(s: SmartOrderRecord): Record<string, unknown> {
  return {
    order_id: s.orderId,
    status: s.status,
    security_id: s.entry.securityId,
    name: s.entry.tradingSymbol,
    txn_type: s.side,
    qty: s.qty,
    order_type: s.entryType,
    is_tsl: s.isTsl,
    tsl_step_size: px(s.tslStepSize),
    trailing: s.trailing,
    remarks: s.remarks,
    created_at: s.createdAt,
    expires_at: s.expiresAt,
    entry: orderRecordWire(s.entry, s),
    ...(s.stopLoss ? { stop_loss: orderRecordWire(s.stopLoss, s) } : {}),
    ...(s.target ? { target: orderRecordWire(s.target, s) } : {}),
  };
}

/** Placement answer: one `order_data` element per leg (the parent alone when it has no legs). */
export function smartPlacementWire(s: SmartOrderRecord): Record<string, unknown> {
  const legs = [s.stopLoss, s.target].filter((l): l is SimOrder => l !== undefined);
  const orderData =
    legs.length === 0
      ? [{ order_id: s.orderId, order_status: s.status }]
      : legs.map((l) => ({
          order_id: s.orderId,
          order_status: s.status,
          child_order_details: { order_id: l.orderId, order_status: l.venueStatus, leg: l.leg === 'stopLoss' ? 'stop_loss' : 'target' },
        }));
  return { order_data: orderData };
}

/** A settlement at expiry, for the control API (`GET /sim/settlements`): money in rupees like the wire. */
export function settlementWire(s: SimSettlement): Record<string, unknown> {
  return {
    security_id: s.securityId,
    symbol: s.tradingSymbol,
    scrip_code: s.instrument,
    product: s.product,
    expiry: s.expiry,
    txn_type: s.side,
    quantity: s.qty,
    settlement_price: toRupees(s.settlementPrice),
    underlying_price: s.underlyingPrice === undefined ? null : toRupees(s.underlyingPrice),
    basis: s.basis,
    realized_profit: toRupees(s.realizedPnl),
    charges: toRupees(s.charges),
    settled_at: s.ts,
  };
}

export function positionWire(p: SimPosition): Record<string, unknown> {
  const derivative = p.segment !== 'EQUITY';
  return {
    position_id: `${p.instrument}:${p.product}`,
    security_id: p.securityId,
    symbol: p.tradingSymbol,
    segment: derivative ? 'DERIVATIVE' : 'EQUITY',
    product: p.product,
    exchange: p.exchange,
    net_qty: p.netQty,
    avg_price: avg(p.avgPrice),
    buy_qty: p.buyQty,
    buy_avg: p.buyQty > 0 ? avg(p.buyValue / p.buyQty) : 0,
    sell_qty: p.sellQty,
    sell_avg: p.sellQty > 0 ? avg(p.sellValue / p.sellQty) : 0,
    realized_profit: toRupees(p.realizedPnl),
    unrealized_profit: toRupees(p.unrealizedPnl),
    last_price: p.lastPrice === undefined ? null : toRupees(p.lastPrice),
    day_buy_qty: p.dayBuyQty,
    day_buy_val: toRupees(p.dayBuyValue),
    day_sell_qty: p.daySellQty,
    day_sell_val: toRupees(p.daySellValue),
    ...(derivative
      ? { drv_expiry_date: p.expiry ?? '', drv_option_type: p.optionType ?? '', drv_strike_price: p.strike === undefined ? null : toRupees(p.strike) }
      : {}),
  };
}

/** A synthetic but well-formed ISIN (INE + 9 characters + check digit) for a security id. */
export function syntheticIsin(securityId: string): string {
  const body = `INE${securityId.padStart(6, '0').slice(-6)}01`;
  return body + isinCheckDigit(body);
}

function isinCheckDigit(body: string): string {
  const digits = [...body].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  let sum = 0;
  let dbl = true;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return String((10 - (sum % 10)) % 10);
}

export function holdingWire(h: SimHolding): Record<string, unknown> {
  return {
    security_id: h.securityId,
    symbol: h.tradingSymbol,
    isin: syntheticIsin(h.securityId),
    total_qty: h.totalQty,
    used_qty: h.usedQty,
    avg_price: avg(h.avgPrice),
    t1_qty: h.t1Qty,
    t1_avg_price: avg(h.t1AvgPrice),
    dp_qty: h.dpQty,
    dp_avg_price: avg(h.dpAvgPrice),
  };
}

export function fundsWire(f: SimFunds): Record<string, unknown> {
  const d = f.detailedAvlBalance;
  return {
    sod_balance: toRupees(f.sodBalance),
    pledge_received: toRupees(f.pledgeReceived),
    pledge_remained: toRupees(f.pledgeRemained),
    detailed_avl_balance: {
      option_sell: toRupees(d.optionSell),
      future: toRupees(d.future),
      option_buy: toRupees(d.optionBuy),
      comm_option_buy: toRupees(d.commOptionBuy),
      eq_mis: toRupees(d.eqMis),
      eq_cnc: toRupees(d.eqCnc),
      eq_mtf: toRupees(d.eqMtf),
    },
    withdrawal_balance: toRupees(f.withdrawalBalance),
    funds_added: toRupees(f.fundsAdded),
    funds_withdrawn: toRupees(f.fundsWithdrawn),
    realized_pnl: toRupees(f.realizedPnl),
    unrealized_pnl: toRupees(f.unrealizedPnl),
    brokerage: toRupees(f.brokerage),
    eq_charges: toRupees(f.eqCharges),
    fno_charges: toRupees(f.fnoCharges),
  };
}

export function marginWire(m: SimMarginResult): Record<string, unknown> {
  const c = m.charges;
  return {
    total_margin: toRupees(m.totalMargin),
    span_margin: toRupees(m.spanMargin),
    exposure_margin: toRupees(m.exposureMargin),
    available_balance: toRupees(m.availableBalance),
    insufficient_balance: toRupees(m.insufficientBalance),
    brokerage: toRupees(m.brokerage),
    charges: {
      stt: toRupees(c.stt),
      exchange_charges: toRupees(c.exchangeCharges),
      stamp_duty: toRupees(c.stampDuty),
      sebi_turn_over_charges: toRupees(c.sebiTurnoverCharges),
      gst: toRupees(c.gst),
      total_charges: toRupees(c.totalCharges),
    },
  };
}
