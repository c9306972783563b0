/**
 * Last year's expiring weekly as the backtester sees it, from the simulator's data side: the NIFTY
 * index and the options near its open on the day before expiry, minute candles, the instruments and
 * the expired-contract rows `withOptionData` builds chains from. Shared by the short-straddle
 * backtest test and the strategy contract.
 */
import { nseCalendar } from '../../../src/core/calendar.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { MINUTE_MS, istDateTime } from '../../../src/core/time.js';
import { Universe } from '../../../src/adapters/simulator/universe/index.js';
import { HistoryService } from '../../../src/adapters/simulator/history/index.js';
import type { ExpiredContractRow } from '../../../src/strategies/options/index.js';
import { seriesFromRows, type CandleSeries } from '../../../backtest/data/candle-series.js';

export const TODAY = '2026-11-20';
export const calendar = nseCalendar();
export const universe = Universe.build({ seed: 7, today: TODAY, calendar, nseEquities: 100, bseEquities: 10 });
export const history = new HistoryService({ universe, clock: new VirtualClock(istDateTime(TODAY, '09:15')) });
export const NIFTY = universe.underlying('NIFTY')!;

export interface Week {
  readonly expiry: string;
  readonly day: string;
  readonly series: CandleSeries[];
  readonly instruments: InstrumentTable;
  readonly contracts: ExpiredContractRow[];
}

/** The last expired weekly before TODAY, traded the day before it: index and nearby options, minute candles. */
export function lastWeekly(): Week {
  const expiry = [...universe.expiredExpiries('NIFTY')].reverse().find((e) => universe.contracts('NIFTY', e)[0]?.expiryKind === 'W')!;
  const day = calendar.previousTradingDay(expiry);
  const from = istDateTime(day, '09:15');
  const to = istDateTime(day, '15:30');
  const toSeries = (id: string, bars: readonly { start: number; open: number; high: number; low: number; close: number; volume: number }[]): CandleSeries =>
    seriesFromRows(id, '1minute', bars.map((b) => ({ start: b.start, ts: b.start + MINUTE_MS, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume })));
  const index = history.candles({ scripCode: NIFTY.instrument.id }, '1minute', from, to)!;
  const spot = index[0]!.open;
  // Options within eight strikes of the open: what a 5-strike chain can reach during the day.
  const options = universe
    .contracts('NIFTY', expiry)
    .filter((c) => c.strike !== null && c.optionType !== null)
    .sort((a, b) => Math.abs(a.strike! - spot) - Math.abs(b.strike! - spot))
    .slice(0, 32);
  const instruments: Instrument[] = [NIFTY.instrument];
  const series: CandleSeries[] = [];
  for (const c of options) {
    instruments.push({ id: c.tradingSymbol, exchange: 'NSE', segment: 'FNO', securityId: c.tradingSymbol, kind: 'OPTIDX', tradingSymbol: c.tradingSymbol, symbol: 'NIFTY', lotSize: c.lotSize, tickSize: c.tickSize, expiry: c.expiry, strike: c.strike!, optionType: c.optionType! });
    series.push(toSeries(c.tradingSymbol, history.candles({ tradingSymbol: c.tradingSymbol }, '1minute', from, to)!));
  }
  // The index last: at each minute the options' closes are in before the chain is built.
  series.push(toSeries(NIFTY.instrument.id, index));
  const contracts = options.map((c) => ({ trading_symbol: c.tradingSymbol, strike_price: c.strike! / 100, option_type: c.optionType, lot_size: c.lotSize, expiry: c.expiry }));
  return { expiry, day, series, instruments: new InstrumentTable(instruments), contracts };
}

