/**
 * The risk limits a daemon runs with, said once at start in rupees, and a warning for a limit that
 * looks written in the wrong unit. Config money was paise until 2026-11 and is rupees now: an old
 * file still loads, with every limit 100 times too loose (`maxOrderValue: 50000000`, once Rs 5 lakh,
 * is Rs 5 crore). Seeing `max order value ₹5,00,00,000.00` at start is the cheapest way to notice.
 *
 * The warnings are heuristics: the daemon runs with the limits as written; nothing is refused.
 */
import type { TradingState } from '../core/enums.js';
import type { Logger } from '../core/log.js';
import { formatInr, type Paise } from '../core/money.js';
import { ALL_CHECKS, type RiskConfig } from '../risk/config.js';
import type { RiskView } from '../engine/engine.js';

/** The alert code of an implausible limit (bus, log, webhook). */
export const IMPLAUSIBLE_LIMIT = 'RISK_LIMIT_IMPLAUSIBLE';

/** Above this a money limit is implausible for any retail account: Rs 10 crore. */
export const IMPLAUSIBLE_LIMIT_PAISE: Paise = 10_00_00_000_00;

/**
 * An order or position worth more than this many times the account's funds can never be reached:
 * the funds check refuses it first (the least margin the model asks, futures and option writing,
 * is 15% of value, under 7x leverage). A limit that cannot bind is most likely in the wrong unit.
 */
export const FUNDS_MULTIPLE = 10;

export interface RiskLimitsInput {
  readonly risk: RiskConfig;
  /** The trading state after the store was read (an earlier run's halt or kill switch wins). */
  readonly tradingState: string;
  readonly killSwitch: boolean;
  /** Paper: the embedded simulator account's opening cash. */
  readonly paperCapital?: Paise;
  /** The venue's available funds as read at start, when known. */
  readonly funds?: Paise;
}

export interface LimitWarning {
  readonly key: 'maxOrderValue' | 'maxPositionValue' | 'maxDailyLoss';
  readonly value: Paise;
  /** The figure it was compared with. */
  readonly threshold: Paise;
  readonly message: string;
}

const LABEL: Record<LimitWarning['key'], string> = {
  maxOrderValue: 'max order value',
  maxPositionValue: 'max position value',
  maxDailyLoss: 'max daily loss',
};

const money = (p: Paise | undefined): string => (p === undefined ? 'off' : formatInr(p));

/** One line for the log: every limit in force, money in rupees, and the account's money. */
export function describeRiskLimits(i: RiskLimitsInput): { readonly text: string; readonly fields: Record<string, unknown> } {
  const r = i.risk;
  const off = ALL_CHECKS.filter((c) => !r.checks.includes(c));
  const fields: Record<string, unknown> = {
    maxOrderValue: money(r.maxOrderValue),
    maxPositionValue: money(r.maxPositionValue),
    maxPositionQty: r.maxPositionQty ?? 'off',
    maxDailyLoss: money(r.maxDailyLoss),
    maxOpenOrders: r.maxOpenOrders,
    orderRate: `${r.orderRate.max} per ${r.orderRate.windowMs} ms per strategy`,
    maxModifications: r.maxModifications,
    replaceAt: r.replaceAt,
    tradingState: i.tradingState,
    killSwitch: i.killSwitch ? 'tripped' : 'off',
    checksOff: off,
    ...(i.paperCapital !== undefined ? { paperCapital: formatInr(i.paperCapital) } : {}),
    ...(i.funds !== undefined ? { fundsAvailable: formatInr(i.funds) } : {}),
  };
  const parts = [
    `max order value ${money(r.maxOrderValue)}`,
    `max position value ${money(r.maxPositionValue)}`,
    `max position qty ${r.maxPositionQty ?? 'off'}`,
    `max daily loss ${money(r.maxDailyLoss)}${r.maxDailyLoss !== undefined ? ' (trips the kill switch)' : ''}`,
    `max open orders ${r.maxOpenOrders}`,
    `order rate ${r.orderRate.max} per ${r.orderRate.windowMs} ms per strategy`,
    `modifications ${r.maxModifications} per order, cancel-and-replace from the ${ordinal(r.replaceAt)}`,
    `kill switch ${i.killSwitch ? 'TRIPPED (halted until resumed)' : 'off'}, trading ${i.tradingState}`,
    off.length === 0 ? 'all checks on' : `checks OFF: ${off.join(', ')}`,
  ];
  const account = [
    ...(i.paperCapital !== undefined ? [`paper capital ${formatInr(i.paperCapital)}`] : []),
    ...(i.funds !== undefined ? [`funds available ${formatInr(i.funds)}`] : []),
  ];
  const text = `daemon: risk limits (rupees): ${parts.join('; ')}${account.length ? ` | ${account.join('; ')}` : ''}`;
  return { text, fields };
}

/**
 * Limits that look written in paise (or simply mistyped): a money limit above Rs 10 crore, an
 * order or position limit above FUNDS_MULTIPLE times the account, a daily loss above the account.
 * `account` is the money the account has (funds, or paper capital); without it only the absolute
 * ceiling is checked. At most one warning per key, the most telling one.
 */
export function implausibleLimits(risk: RiskConfig, account: Paise | undefined): LimitWarning[] {
  const out: LimitWarning[] = [];
  const warn = (key: LimitWarning['key'], value: Paise, threshold: Paise, why: string): void => {
    const meant = Math.round(value / 100);
    out.push({
      key,
      value,
      threshold,
      message:
        `risk.${key} (${LABEL[key]}) ${formatInr(value)} ${why}: this is a heuristic warning, not a refusal; the daemon runs with this limit. ` +
        `Config money is rupees since 2026-11: a figure written in paise is 100 times too loose (if it was, it meant ${formatInr(meant)}: divide the figure by 100)`,
    });
  };
  for (const key of ['maxOrderValue', 'maxPositionValue'] as const) {
    const v = risk[key];
    if (v === undefined) continue;
    if (account !== undefined && account > 0 && v > account * FUNDS_MULTIPLE) {
      warn(key, v, account * FUNDS_MULTIPLE, `is more than ${FUNDS_MULTIPLE} times the account's ${formatInr(account)}, so the funds check would always refuse first`);
    } else if (v > IMPLAUSIBLE_LIMIT_PAISE) {
      warn(key, v, IMPLAUSIBLE_LIMIT_PAISE, `is above ${formatInr(IMPLAUSIBLE_LIMIT_PAISE)}`);
    }
  }
  const loss = risk.maxDailyLoss;
  if (loss !== undefined) {
    if (account !== undefined && account > 0 && loss > account) warn('maxDailyLoss', loss, account, `is more than the account's ${formatInr(account)}, so the kill switch would trip only after more than the whole account is lost`);
    else if (loss > IMPLAUSIBLE_LIMIT_PAISE) warn('maxDailyLoss', loss, IMPLAUSIBLE_LIMIT_PAISE, `is above ${formatInr(IMPLAUSIBLE_LIMIT_PAISE)}`);
  }
  return out;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/**
 * Says the limits in force in rupees, with the account's money, before any market data (this line
 * is where a person sees a config still written in paise), and hands each implausible limit to
 * `warn` (the daemon raises it as a warn alert: log, bus, webhook). Heuristics: nothing stops.
 */
export function reportRiskLimits(
  i: { readonly view: RiskView; readonly tradingState: TradingState; readonly paperCapital?: Paise | undefined },
  log: Logger,
  warn: (message: string, context: Readonly<Record<string, unknown>>) => void,
): void {
  const funds = i.view.availableFunds;
  const capital = i.paperCapital;
  const { text, fields } = describeRiskLimits({
    risk: i.view.config,
    tradingState: i.tradingState,
    killSwitch: i.view.killSwitch,
    ...(capital !== undefined ? { paperCapital: capital } : {}),
    ...(funds !== undefined ? { funds } : {}),
  });
  log.info({ risk: fields }, text);
  for (const w of implausibleLimits(i.view.config, funds ?? capital)) {
    warn(w.message, { key: `risk.${w.key}`, valuePaise: w.value, thresholdPaise: w.threshold });
  }
}
