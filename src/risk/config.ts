/**
 * Risk limits, validated with zod; absent optional limits are off.
 *
 * Money has two faces. In a config file (the `risk:` section, `RiskConfigSchema`) amounts are
 * RUPEES, as traders say them: `maxOrderValue: 500000`, `"5,00,000"` or `"5 lakh"` is a limit of
 * Rs 5,00,000; decimals to the paisa, nothing finer. Inside (`RiskConfig`, and `RiskConfigInput`
 * that code hands to the RiskEngine) they are exact integer PAISE. Until 2026-11 the file took
 * paise, so an old `maxOrderValue: 50000000` now reads as Rs 5 crore: see README, Configuration.
 *
 * Defaults:
 * - checks: all, in the order of `ALL_CHECKS` (cheap structural checks first, stateful ones last)
 * - maxModifications 25 (the broker's cap, spec 4.6); replaceAt 24: from the 24th modification on, a
 *   modify intent becomes cancel-and-replace (or local emulation for a smart leg) instead of failing
 * - margin: the local margin estimate (used against the venue's available funds) is the simulator's
 *   `MarginModel` (CNC buy 100%, intraday 20%, futures 12%+3%, option buy premium, option write
 *   12%+3% of strike value); its rates are configurable here. Reducing orders need no margin.
 * - maxOrderValue, maxPositionQty, maxPositionValue: off
 * - maxOpenOrders 50 (account-wide working orders)
 * - orderRate: 20 order writes (place, smart, modify) per 1,000 ms per strategy (a runaway guard
 *   above the broker's 10/s, which the adapter's limiter enforces by queueing)
 * - maxDailyLoss: off; when set, a day's P&L (realized + unrealized) at or below -maxDailyLoss
 *   trips the kill switch: cancel all, flatten all, halt (persisted until an operator resumes)
 * - tradingState: 'active'
 * - marketProtectionPct: the dated value of config/market-rules/retail-algo.yaml (3): MARKET orders
 *   are valued at last price +/- this %, the limit the broker gives them
 */
import { z } from 'zod';
import { cfg } from '../core/config.js';
import { ConfigError } from '../core/errors.js';
import { MarginModelOptionsSchema } from './margin-model.js';
import { defaultMarketProtectionPct } from './rules/market-protection.js';
import { zodIssueLines } from '../core/zod-issues.js';

export const CheckName = {
  TRADING_STATE: 'tradingState',
  INSTRUMENT_HOLD: 'instrumentHold',
  INSTRUMENT: 'instrument',
  LOT_SIZE: 'lotSize',
  FREEZE_QTY: 'freezeQty',
  TICK_SIZE: 'tickSize',
  CIRCUIT: 'circuit',
  PRICE_BAND: 'priceBand',
  SMART_LEG_BOUNDS: 'smartLegBounds',
  INTRADAY_CUTOFF: 'intradayCutoff',
  MODIFICATION_CAP: 'modificationCap',
  MAX_ORDER_VALUE: 'maxOrderValue',
  MAX_POSITION: 'maxPosition',
  MAX_OPEN_ORDERS: 'maxOpenOrders',
  ORDER_RATE: 'orderRate',
  FUNDS: 'funds',
  DAILY_LOSS: 'dailyLoss',
} as const;
export type CheckName = (typeof CheckName)[keyof typeof CheckName];

export const ALL_CHECKS: readonly CheckName[] = Object.values(CheckName);

export { TradingState } from '../core/enums.js';

const paise = z.number().int().nonnegative();

/** Every key but the money limits, shared by the file (rupees) and code (paise) schemas. */
const settings = {
  checks: z.array(z.enum(ALL_CHECKS as [CheckName, ...CheckName[]])).default([...ALL_CHECKS]),
  maxModifications: z.number().int().positive().default(25),
  replaceAt: z.number().int().positive().default(24),
  margin: MarginModelOptionsSchema.prefault({}),
  maxPositionQty: z.number().int().positive().optional(),
  maxOpenOrders: z.number().int().positive().default(50),
  orderRate: z
    .object({ max: z.number().int().positive().default(20), windowMs: z.number().int().positive().default(1000) })
    .default({ max: 20, windowMs: 1000 }),
  tradingState: z.enum(['active', 'reducing', 'halted']).default('active'),
  /**
   * MARKET orders are valued at the last price +/- this percentage, the limit the broker gives them
   * (src/risk/rules/market-protection.ts); paper's simulator and the backtest take the same value.
   * Default: config/market-rules/retail-algo.yaml (3).
   */
  marketProtectionPct: z.number().positive().max(100).default(() => defaultMarketProtectionPct()),
};

const replaceWithinCap = (c: { replaceAt: number; maxModifications: number }): boolean => c.replaceAt <= c.maxModifications;
const REPLACE_WITHIN_CAP = { message: 'replaceAt must not exceed maxModifications', path: ['replaceAt'] };

/** Risk options as code passes them to the RiskEngine: money limits in integer paise. */
export const RiskConfigPaiseSchema = z
  .object({ ...settings, maxOrderValue: paise.optional(), maxPositionValue: paise.optional(), maxDailyLoss: paise.optional() })
  .strict()
  .refine(replaceWithinCap, REPLACE_WITHIN_CAP);

/**
 * The `risk:` section of a config file: money limits in rupees (one order's value, a position's
 * value, the day's loss that trips the kill switch), each > 0; the output is the same paise
 * `RiskConfig` as `RiskConfigPaiseSchema`'s.
 */
export const RiskConfigSchema = z
  .object({
    ...settings,
    maxOrderValue: cfg.rupees().optional().describe('rupees: the most one order may be worth (qty x price)'),
    maxPositionValue: cfg.rupees().optional().describe('rupees: the most a position in one instrument may be worth'),
    maxDailyLoss: cfg.rupees().optional().describe("rupees: a day's loss (realized + unrealized) that trips the kill switch"),
  })
  .strict()
  .refine(replaceWithinCap, REPLACE_WITHIN_CAP);

export type RiskConfig = z.output<typeof RiskConfigPaiseSchema>;
/** Risk options from code: money in paise. (A config file's `risk:` section is rupees.) */
export type RiskConfigInput = z.input<typeof RiskConfigPaiseSchema>;

/** Validates risk options from code (money in paise); throws ConfigError naming the offending key. */
export function parseRiskConfig(input: RiskConfigInput | undefined, where = 'risk'): RiskConfig {
  const r = RiskConfigPaiseSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = zodIssueLines(r.error, { prefix: `${where}.`, root: '(root)' });
  throw new ConfigError(`invalid risk config: ${issues.join('; ')}`, { where, issues });
}
