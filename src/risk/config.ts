/**
 * Risk limits, validated with zod. Money is in paise (integers); absent optional limits are off.
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
 */
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { MarginModelOptionsSchema } from '../adapters/simulator/matching/margin-model.js';

export const CheckName = {
  TRADING_STATE: 'tradingState',
  INSTRUMENT: 'instrument',
  LOT_SIZE: 'lotSize',
  TICK_SIZE: 'tickSize',
  CIRCUIT: 'circuit',
  SMART_LEG_BOUNDS: 'smartLegBounds',
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

export const TradingState = { ACTIVE: 'active', REDUCING: 'reducing', HALTED: 'halted' } as const;
export type TradingState = (typeof TradingState)[keyof typeof TradingState];

const paise = z.number().int().nonnegative();

export const RiskConfigSchema = z
  .object({
    checks: z.array(z.enum(ALL_CHECKS as [CheckName, ...CheckName[]])).default([...ALL_CHECKS]),
    maxModifications: z.number().int().positive().default(25),
    replaceAt: z.number().int().positive().default(24),
    margin: MarginModelOptionsSchema.prefault({}),
    maxOrderValue: paise.optional(),
    maxPositionQty: z.number().int().positive().optional(),
    maxPositionValue: paise.optional(),
    maxOpenOrders: z.number().int().positive().default(50),
    orderRate: z
      .object({ max: z.number().int().positive().default(20), windowMs: z.number().int().positive().default(1000) })
      .default({ max: 20, windowMs: 1000 }),
    maxDailyLoss: paise.optional(),
    tradingState: z.enum(['active', 'reducing', 'halted']).default('active'),
  })
  .strict()
  .refine((c) => c.replaceAt <= c.maxModifications, { message: 'replaceAt must not exceed maxModifications', path: ['replaceAt'] });

export type RiskConfig = z.output<typeof RiskConfigSchema>;
export type RiskConfigInput = z.input<typeof RiskConfigSchema>;

/** Validates risk options; throws ConfigError naming the offending key. */
export function parseRiskConfig(input: RiskConfigInput | undefined, where = 'risk'): RiskConfig {
  const r = RiskConfigSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${where}.${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`invalid risk config: ${issues.join('; ')}`, { where, issues });
}
