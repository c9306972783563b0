/** A small NIFTY world for straddle tests: the index, one weekly expiry's options around 21,700, and chains. */
import { bsPrice, yearsToExpiry } from '../../../src/core/greeks.js';
import type { Instrument, OptionType } from '../../../src/core/instruments.js';
import { Rounding, roundToTick, type Paise } from '../../../src/core/money.js';
import type { BrokerGreeks, OptionChainSnapshot, OptionQuote } from '../../../src/strategies/options/option-data.js';

export const DAY = '2024-01-02';
export const WEEKLY = '2024-01-04';
export const EXPIRIES = ['2024-01-04', '2024-01-11', '2024-01-18', '2024-01-25', '2024-02-29'];

export const NIFTY: Instrument = {
  id: 'NIDX_13',
  exchange: 'NSE',
  segment: 'INDEX',
  securityId: '13',
  kind: 'INDEX',
  tradingSymbol: 'NIFTY',
  symbol: 'NIFTY',
  lotSize: 1,
  tickSize: 5,
};

export const STRIKES = [21600, 21700, 21800];

function securityId(strike: number, type: OptionType): string {
  return String(40000 + (strike - 21600) / 10 + (type === 'PE' ? 1 : 0));
}

export function option(strike: number, type: OptionType, lotSize = 50, expiry = WEEKLY): Instrument {
  const yymdd = `${expiry.slice(2, 4)}${Number(expiry.slice(5, 7))}${expiry.slice(8, 10)}`;
  return {
    id: `NFO_${securityId(strike, type)}`,
    exchange: 'NSE',
    segment: 'FNO',
    securityId: securityId(strike, type),
    kind: 'OPTIDX',
    tradingSymbol: `NIFTY${yymdd}${strike}${type}`,
    symbol: 'NIFTY',
    lotSize,
    tickSize: 5,
    expiry,
    strike: strike * 100,
    optionType: type,
  };
}

export const OPTIONS: Instrument[] = STRIKES.flatMap((k) => [option(k, 'CE'), option(k, 'PE')]);

export const CE_ATM = option(21700, 'CE');
export const PE_ATM = option(21700, 'PE');

export interface ChainSpec {
  readonly ts: number;
  readonly spot: Paise;
  /** Premiums in paise by `strike + type`, e.g. `21700CE`; default: Black-Scholes at `vol`. */
  readonly ltp?: Readonly<Record<string, Paise>>;
  readonly vol?: number;
  readonly rate?: number;
  readonly greeks?: (strike: number, type: OptionType) => BrokerGreeks | undefined;
  /** Lot size the chain reports (the master may say otherwise). */
  readonly chainLotSize?: number;
  readonly expiry?: string;
}

/** A chain snapshot as the engine would hand it over. */
export function chain(s: ChainSpec): OptionChainSnapshot {
  const expiry = s.expiry ?? WEEKLY;
  const quote = (strike: number, type: OptionType): OptionQuote => {
    const inst = option(strike, type, 50, expiry);
    const model = bsPrice({ type, spot: s.spot / 100, strike, years: yearsToExpiry(s.ts, expiry), vol: s.vol ?? 0.13, rate: s.rate ?? 0.065 });
    const ltp = s.ltp?.[`${strike}${type}`] ?? Math.max(5, roundToTick(model * 100, 5, Rounding.NEAREST));
    const g = s.greeks?.(strike, type);
    return {
      instrument: inst.id,
      tradingSymbol: inst.tradingSymbol,
      optionType: type,
      strike: strike * 100,
      expiry,
      lotSize: s.chainLotSize ?? 50,
      tickSize: 5,
      ltp,
      ...(g ? { greeks: g } : {}),
    };
  };
  return {
    ts: s.ts,
    underlying: 'NIFTY',
    underlyingInstrument: NIFTY.id,
    spot: s.spot,
    expiry,
    strikes: STRIKES.map((k) => ({ strike: k * 100, ce: quote(k, 'CE'), pe: quote(k, 'PE') })),
  };
}
