/**
 * The historical endpoints over the candle generator: parameter checks, the per-interval maximum
 * range, trading-day filtering, the live-path hook and the wire form.
 */
import type { Clock } from '../../../core/clock.js';
import type { Interval } from '../../../core/candles.js';
import type { Paise } from '../../../core/money.js';
import type { ApiResult, RawQuery } from '../universe/api-result.js';
import type { Universe } from '../universe/universe.js';
import type { Bar, HistoricalData, LiveMinuteSource } from './types.js';

export const MAX_SCRIP_CODES_PER_CALL = 5;
export const MAX_TRADING_SYMBOLS_PER_CALL = 50;

export interface HistoryServiceOptions {
  readonly universe: Universe;
  /** The simulator's clock: no candle at or after `now` exists, and today's last one is partial. */
  readonly clock: Clock;
  readonly live?: LiveMinuteSource;
}

export class HistoryService {
  constructor(private readonly options: HistoryServiceOptions) {}

  /** Attaches (or detaches with undefined) the live market model's path for today. */
  setLiveSource(_live: LiveMinuteSource | undefined): void {
    throw new Error('not implemented');
  }

  /** GET /market/historical/{interval}?scrip-codes=&start_time=&end_time= */
  historical(_interval: string, _q: RawQuery): ApiResult<HistoricalData> {
    throw new Error('not implemented');
  }

  /** GET /market/historical/expired/{interval}?trading-symbols=&start_time=&end_time=&segment= (spec 4.9). */
  expiredHistorical(_interval: string, _q: RawQuery): ApiResult<HistoricalData> {
    throw new Error('not implemented');
  }

  /**
   * Candles of a current instrument (scrip code) or any contract (trading symbol) in
   * [startMs, endMs), after truncating the window to the interval's maximum range from `startMs`.
   * Undefined when the instrument is unknown.
   */
  candles(_ref: { scripCode: string } | { tradingSymbol: string }, _interval: Interval, _startMs: number, _endMs: number): readonly Bar[] | undefined {
    throw new Error('not implemented');
  }

  /** The generator's 1-minute bars of one instrument for one trading day (the market model may seed from it). */
  minuteBars(_scripCode: string, _date: string): readonly Bar[] {
    throw new Error('not implemented');
  }

  /** Close of the last trading day before `date` (the quote's `prev_close`), paise. */
  previousClose(_scripCode: string, _date: string): Paise | undefined {
    throw new Error('not implemented');
  }
}
