/**
 * The simulated instrument universe: indices, NSE and BSE equities, and every current and expired
 * derivative contract of the last `historyYears`, all derived deterministically from a seed and the
 * simulator's trading date. Current contracts are materialised (they are in the instrument master);
 * expired ones are generated per (underlying, expiry) on demand, since five years of weekly index
 * chains are millions of rows.
 */
import type { Instrument } from '../../../core/instruments.js';
import { InstrumentTable } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { Contract, MasterSource, TradingCalendar, Underlying, UniverseOptions } from './types.js';

export class Universe {
  readonly seed: number;
  readonly today: string;
  readonly calendar: TradingCalendar;
  /** Every current instrument (indices, equities, unexpired contracts) by scrip code. */
  readonly table: InstrumentTable;

  private constructor(options: UniverseOptions) {
    this.seed = options.seed;
    this.today = options.today;
    this.calendar = options.calendar;
    this.table = new InstrumentTable();
  }

  /** Builds the universe. Throws RangeError on invalid options (bad date, negative counts). */
  static build(options: UniverseOptions): Universe {
    return new Universe(options);
  }

  /** Instrument by scrip code (`NSE_2885`, `NFO_35012`, `NIDX_13`). */
  get(scripCode: string): Instrument | undefined {
    return this.table.get(scripCode);
  }

  /** All current instruments: indices, equities, unexpired contracts. */
  instruments(): readonly Instrument[] {
    throw new Error('not implemented');
  }

  /** Every derivative underlying (indices first, then stocks). */
  underlyings(): readonly Underlying[] {
    throw new Error('not implemented');
  }

  /** The underlying named by its base symbol (case-sensitive, as the exchange spells it). */
  underlying(_symbol: string): Underlying | undefined {
    throw new Error('not implemented');
  }

  /** The underlying whose index or cash-equity instrument has this scrip code (`NIDX_13`, `NSE_2885`). */
  underlyingOf(_scripCode: string): Underlying | undefined {
    throw new Error('not implemented');
  }

  /** Upcoming expiries (>= today) of an underlying, ascending. */
  currentExpiries(_symbol: string): readonly string[] {
    throw new Error('not implemented');
  }

  /** Expiries before today, within the history window, ascending. */
  expiredExpiries(_symbol: string): readonly string[] {
    throw new Error('not implemented');
  }

  /** The full chain of one expiry (futures first, then options by strike, CE before PE); [] when none. */
  contracts(_symbol: string, _expiry: string): readonly Contract[] {
    throw new Error('not implemented');
  }

  /** A current or expired contract by its trading symbol. */
  contractBySymbol(_tradingSymbol: string): Contract | undefined {
    throw new Error('not implemented');
  }

  /** The contract behind a current fno instrument's scrip code. */
  contractOf(_scripCode: string): Contract | undefined {
    throw new Error('not implemented');
  }

  /** The simulated closing price of an underlying on a date (any calendar date), paise, on its tick. */
  underlyingClose(_symbol: string, _date: string): Paise {
    throw new Error('not implemented');
  }

  /** The instrument master CSV of spec 2.3 (header line included, `\n` line ends). */
  masterCsv(_source: MasterSource): string {
    throw new Error('not implemented');
  }
}
