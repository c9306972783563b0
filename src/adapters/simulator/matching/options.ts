/**
 * Construction options of the matching engine, validated with zod so a bad value fails at start
 * with a message naming it.
 */
import { z } from 'zod';
import type { Clock } from '../../../core/clock.js';
import { ConfigError } from '../../../core/errors.js';
import type { Instrument, InstrumentLookup } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { Depth } from './types.js';
import type { VenueAccount, VenueAccountOptions } from './account.js';
import { formatZodIssues } from '../../../core/zod-issues.js';
import { defaultMarketProtectionPct } from '../../../risk/rules/market-protection.js';
import type { SquareOffTimes } from '../../../risk/rules/square-off.js';

export const TslMode = { OFF: 'off', ON: 'on' } as const;
export type TslMode = (typeof TslMode)[keyof typeof TslMode];

export const MatchingEngineSettingsSchema = z
  .object({
    /** Trailing stop-loss: `off` accepts and ignores `is_tsl` (spec 3.4 "announced"); `on` trails. */
    tsl: z.enum(['off', 'on']).default('off'),
    /**
     * true (the simulator): an order is matched against the last known book the moment it arrives,
     * so MARKET fills at once. false (the backtester): orders wait for the next market update, so an
     * order placed after candle N's close fills on candle N+1 or later (no look-ahead).
     */
    matchOnArrival: z.boolean().default(true),
    /** Ticks of adverse slippage on market-like fills (MARKET, triggered stop-market). */
    slippageTicks: z.number().int().min(0).default(0),
    /** MARKET orders become LIMIT at last price +/- this percentage (market-protection.ts; default the dated value). */
    marketProtectionPct: z.number().positive().max(100).default(() => defaultMarketProtectionPct()),
    /** Spec 4.6: a single order accepts at most 25 modifications. */
    maxModifications: z.number().int().positive().default(25),
    /** Whether the session is open at construction (AMO orders are accepted only while closed). */
    sessionOpen: z.boolean().default(true),
    /** First sequence number of order and fill ids (ids are prefix + sequence, deterministic). */
    idBase: z.number().int().positive().default(250_000_000_001),
    /** Smart orders live this long (wire-gaps: 365 days). */
    smartOrderTtlDays: z.number().int().positive().default(365),
  })
  .strict();
export type MatchingEngineSettings = z.input<typeof MatchingEngineSettingsSchema>;
export type ResolvedSettings = z.output<typeof MatchingEngineSettingsSchema>;

export interface MatchingEngineOptions extends MatchingEngineSettings {
  readonly instruments: InstrumentLookup;
  /** Time of placements, modifications, cancels and session events. Fills take the market update's ts. */
  readonly clock: Clock;
  /** The account to book into; by default a fresh one built from `accountOptions`. */
  readonly account?: VenueAccount;
  readonly accountOptions?: Omit<VenueAccountOptions, 'instruments'>;
  /**
   * Full book for an instrument at the moment an order arrives (e.g. the market model's depth).
   * Used to walk the book for marketable arrivals when the last update carried no depth.
   */
  readonly depth?: (instrument: string) => Depth | undefined;
  /**
   * The underlying's price (S) of a derivative whose expiry session is closing now, asked once per
   * open position at `expireSession` of the expiry date: positions are settled off it at the first
   * session of a later date. Undefined (or no answer): the contract settles at its own last price.
   */
  readonly underlyingClose?: (contract: Instrument) => Paise | undefined;
  /**
   * The broker's intraday square-off time per segment (`squareOff(segment)` closes INTRADAY
   * positions then; its callers, the session driver and the backtest runner, read it here).
   * Default: config/market-rules/square-off.yaml.
   */
  readonly squareOffTimes?: SquareOffTimes;
}

export function resolveSettings(options: MatchingEngineSettings): ResolvedSettings {
  const { tsl, matchOnArrival, slippageTicks, marketProtectionPct, maxModifications, sessionOpen, idBase, smartOrderTtlDays } =
    options;
  const parsed = MatchingEngineSettingsSchema.safeParse({
    tsl,
    matchOnArrival,
    slippageTicks,
    marketProtectionPct,
    maxModifications,
    sessionOpen,
    idBase,
    smartOrderTtlDays,
  });
  if (!parsed.success) {
    const detail = formatZodIssues(parsed.error, { root: '(root)' });
    throw new ConfigError(`matching engine options: ${detail}`, { detail });
  }
  return parsed.data;
}
