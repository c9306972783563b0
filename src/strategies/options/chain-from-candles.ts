/**
 * A chain snapshot from history, for backtests over expired contracts (spec 4.5, 4.9): the
 * contracts of one expiry (the expired-contracts endpoint's rows) and, for each, its last candle
 * close at or before the moment the snapshot describes. The backtester calls this at each candle
 * close with the closes it has already played, so the strategy sees no future price. No greeks:
 * history has none, and the strategy computes them itself.
 */
import { parsePaise, type Paise } from '../../core/money.js';
import type { OptionType } from '../../core/instruments.js';
import type { ChainStrike, OptionChainSnapshot, OptionQuote } from './option-data.js';

/** Spec 2.6 expired contract row, as the contracts endpoint returns it (rupee strike). */
export interface ExpiredContractRow {
  readonly trading_symbol: string;
  readonly strike_price: number | null;
  readonly option_type: OptionType | null;
  readonly lot_size: number;
  readonly expiry: string;
}

export interface ChainFromCandlesInput {
  readonly ts: number;
  readonly underlying: string;
  readonly underlyingInstrument: string;
  readonly spot: Paise;
  readonly contracts: readonly ExpiredContractRow[];
  /** The id the backtester gave an expired contract (orders and candles use it). */
  readonly instrumentOf: (tradingSymbol: string) => string;
  /** Last close at or before `ts`, paise; undefined when the contract has not traded yet. */
  readonly lastClose: (tradingSymbol: string) => Paise | undefined;
  /** Strikes each side of the one nearest the spot; all when absent. */
  readonly strikeCount?: number;
  /** Option tick, paise (NSE index options: 5). */
  readonly tickSize?: Paise;
}

export function chainFromCandles(i: ChainFromCandlesInput): OptionChainSnapshot {
  const byStrike = new Map<Paise, { ce?: OptionQuote; pe?: OptionQuote }>();
  let expiry: string | undefined;
  for (const c of i.contracts) {
    if (c.strike_price === null || c.option_type === null) continue; // futures rows
    expiry ??= c.expiry;
    if (c.expiry !== expiry) throw new RangeError(`chainFromCandles: contracts of several expiries (${expiry}, ${c.expiry})`);
    const strike = parsePaise(c.strike_price, 'strike_price');
    const ltp = i.lastClose(c.trading_symbol);
    const q: OptionQuote = {
      instrument: i.instrumentOf(c.trading_symbol),
      tradingSymbol: c.trading_symbol,
      optionType: c.option_type,
      strike,
      expiry: c.expiry,
      lotSize: c.lot_size,
      tickSize: i.tickSize ?? 5,
      ...(ltp !== undefined ? { ltp } : {}),
    };
    const row = byStrike.get(strike) ?? {};
    if (c.option_type === 'CE') row.ce = q;
    else row.pe = q;
    byStrike.set(strike, row);
  }
  let strikes: ChainStrike[] = [...byStrike.entries()].sort((a, b) => a[0] - b[0]).map(([strike, r]) => ({ strike, ...r }));
  if (i.strikeCount !== undefined && strikes.length > 0) {
    let atm = 0;
    strikes.forEach((s, k) => {
      if (Math.abs(s.strike - i.spot) < Math.abs(strikes[atm]!.strike - i.spot)) atm = k;
    });
    strikes = strikes.slice(Math.max(0, atm - i.strikeCount), atm + i.strikeCount + 1);
  }
  return { ts: i.ts, underlying: i.underlying, underlyingInstrument: i.underlyingInstrument, spot: i.spot, expiry: expiry ?? '', strikes };
}
