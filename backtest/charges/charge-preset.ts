/**
 * Charge presets as data (config/charges/*.yaml), validated with zod, turned into the matching
 * engine's `ChargeCalculator` shape so the simulated venue books them on every fill.
 *
 * Per fill, with turnover = price x qty (premium turnover for options):
 *   brokerage = min(turnover x percent, max) | flat           (per fill; see README)
 *   stt, exchange, sebi, stamp = turnover x rate for the fill's side
 *   gst = (brokerage + exchange + sebi) x gst%
 * each rounded half up to the paisa; GST on the rounded parts, as a contract note does. The rate
 * period is the latest whose `effective_from` is on or before the fill's IST date; fills before
 * every period use the earliest one.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.js';
import type { Product, Side } from '../../src/core/enums.js';
import type { Instrument } from '../../src/core/instruments.js';
import type { Paise } from '../../src/core/money.js';
import { configPath } from '../../src/core/paths.js';
import { istMidnight } from '../../src/core/time.js';
import type { ChargeCalculator, ChargeInput } from '../../src/adapters/simulator/matching/charges.js';
import type { ChargeBreakdown } from '../../src/adapters/simulator/matching/types.js';
import { applyRate, parsePercent, parseRupees, type ExactRate } from './exact-rate.js';
import { formatZodIssues } from '../../src/core/zod-issues.js';

const pct = z.string().regex(/^\d+(?:\.\d+)?$/, 'a percentage as a decimal string, e.g. "0.00297"');
const sided = z.object({ buy: pct, sell: pct }).strict();
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const ChargePresetSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().min(1),
    last_checked: z.string().regex(DATE, 'a date YYYY-MM-DD'),
    checked_against: z.string().min(1),
    brokerage: z.union([
      z.object({ percent: pct, max_rupees: pct.optional() }).strict(),
      z.object({ flat_rupees: pct }).strict(),
    ]),
    periods: z
      .array(
        z
          .object({
            effective_from: z.string().regex(DATE, 'a date YYYY-MM-DD'),
            stt: sided,
            exchange: sided,
            sebi: sided,
            stamp_duty: sided,
            gst: pct,
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

interface SidedRate {
  readonly buy: ExactRate;
  readonly sell: ExactRate;
}

export interface RatePeriod {
  readonly effectiveFrom: string;
  /** 00:00 IST of effectiveFrom, epoch ms. */
  readonly fromMs: number;
  readonly stt: SidedRate;
  readonly exchange: SidedRate;
  readonly sebi: SidedRate;
  readonly stampDuty: SidedRate;
  readonly gst: ExactRate;
}

export interface ChargePreset {
  readonly name: string;
  readonly description: string;
  readonly lastChecked: string;
  readonly checkedAgainst: string;
  readonly source: string;
  readonly brokerage: { readonly percent?: ExactRate; readonly maxPaise?: Paise; readonly flatPaise?: Paise };
  /** Sorted by effectiveFrom, ascending. */
  readonly periods: readonly RatePeriod[];
}

export const PRESET_NAMES = ['equity-delivery', 'equity-intraday', 'futures', 'options'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** Parses and validates preset text; `source` names the file in errors. */
export function parseChargePreset(text: string, source: string): ChargePreset {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`${source}: not valid YAML: ${(e as Error).message}`, { source }, { cause: e });
  }
  const r = ChargePresetSchema.safeParse(raw);
  if (!r.success) {
    const detail = formatZodIssues(r.error, { root: '(root)' });
    throw new ConfigError(`${source}: invalid charge preset: ${detail}`, { source, detail });
  }
  const f = r.data;
  const side = (s: { buy: string; sell: string }, where: string): SidedRate => ({
    buy: parsePercent(s.buy, `${source} ${where}.buy`),
    sell: parsePercent(s.sell, `${source} ${where}.sell`),
  });
  const periods = f.periods
    .map((p, i) => ({
      effectiveFrom: p.effective_from,
      fromMs: dateMs(p.effective_from, `${source} periods.${i}.effective_from`),
      stt: side(p.stt, `periods.${i}.stt`),
      exchange: side(p.exchange, `periods.${i}.exchange`),
      sebi: side(p.sebi, `periods.${i}.sebi`),
      stampDuty: side(p.stamp_duty, `periods.${i}.stamp_duty`),
      gst: parsePercent(p.gst, `${source} periods.${i}.gst`),
    }))
    .sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : 1));
  for (let i = 1; i < periods.length; i++) {
    if (periods[i]!.effectiveFrom === periods[i - 1]!.effectiveFrom) {
      throw new ConfigError(`${source}: two periods start on ${periods[i]!.effectiveFrom}`, { source });
    }
  }
  const b = f.brokerage;
  const brokerage =
    'flat_rupees' in b
      ? { flatPaise: parseRupees(b.flat_rupees, `${source} brokerage.flat_rupees`) }
      : {
          percent: parsePercent(b.percent, `${source} brokerage.percent`),
          ...(b.max_rupees !== undefined ? { maxPaise: parseRupees(b.max_rupees, `${source} brokerage.max_rupees`) } : {}),
        };
  return { name: f.name, description: f.description, lastChecked: f.last_checked, checkedAgainst: f.checked_against, source, brokerage, periods };
}

/** A preset by name (config/charges/<name>.yaml) or by file path. */
export function loadChargePreset(nameOrPath: string): ChargePreset {
  const isName = (PRESET_NAMES as readonly string[]).includes(nameOrPath);
  const path = isName ? configPath('charges', `${nameOrPath}.yaml`) : nameOrPath;
  if (!isName && !(isAbsolute(path) || path.includes('/') || path.endsWith('.yaml') || path.endsWith('.yml'))) {
    throw new ConfigError(`--charges ${nameOrPath}: unknown preset; use none, auto, ${PRESET_NAMES.join(', ')} or a YAML file path`, {
      value: nameOrPath,
    });
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`--charges ${nameOrPath}: cannot read ${path}: ${(e as Error).message}`, { path }, { cause: e });
  }
  return parseChargePreset(text, path);
}

function dateMs(date: string, where: string): number {
  try {
    return istMidnight(date);
  } catch {
    throw new ConfigError(`${where}: no such date ${JSON.stringify(date)}`, { where, date });
  }
}

/** The rate period in force at `ts` (the earliest one for fills before every period). */
function ratePeriodAt(preset: ChargePreset, ts: number): RatePeriod {
  const periods = preset.periods;
  let chosen = periods[0]!;
  for (let i = 1; i < periods.length; i++) if (periods[i]!.fromMs <= ts) chosen = periods[i]!;
  return chosen;
}

export interface FillForCharges {
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly ts: number;
}

/** Charges of one fill under a preset (exact; see the file comment for the formula). */
export function computeCharges(preset: ChargePreset, fill: FillForCharges): ChargeBreakdown {
  return chargesAt(preset, fill.side, fill.qty, fill.price, fill.ts);
}

// Runs for every simulated fill: plain arguments and no closures (under tsx every closure made
// per call also pays a defineProperty for its name).
function chargesAt(preset: ChargePreset, side: Side, qty: number, price: Paise, ts: number): ChargeBreakdown {
  const turnover = qty * price;
  if (!Number.isSafeInteger(turnover) || turnover < 0) throw new ConfigError(`charges: turnover ${qty} x ${price} out of range`, { side, qty, price, ts });
  const period = ratePeriodAt(preset, ts);
  const sell = side === 'SELL';
  const b = preset.brokerage;
  let brokerage: Paise;
  if (b.flatPaise !== undefined) brokerage = turnover > 0 ? b.flatPaise : 0;
  else {
    brokerage = applyRate(turnover, b.percent!);
    if (b.maxPaise !== undefined && brokerage > b.maxPaise) brokerage = b.maxPaise;
  }
  const stt = applyRate(turnover, sell ? period.stt.sell : period.stt.buy);
  const exchangeCharges = applyRate(turnover, sell ? period.exchange.sell : period.exchange.buy);
  const sebiTurnoverCharges = applyRate(turnover, sell ? period.sebi.sell : period.sebi.buy);
  const stampDuty = applyRate(turnover, sell ? period.stampDuty.sell : period.stampDuty.buy);
  const gst = applyRate(brokerage + exchangeCharges + sebiTurnoverCharges, period.gst);
  return {
    brokerage,
    stt,
    exchangeCharges,
    stampDuty,
    sebiTurnoverCharges,
    gst,
    totalCharges: stt + exchangeCharges + stampDuty + sebiTurnoverCharges + gst,
  };
}

/** The preset that applies to a fill under `--charges auto`. */
export function autoPresetName(instrument: Instrument, product: Product): PresetName {
  if (instrument.kind === 'OPTIDX' || instrument.kind === 'OPTSTK') return 'options';
  if (instrument.kind === 'FUTIDX' || instrument.kind === 'FUTSTK') return 'futures';
  return product === 'CNC' ? 'equity-delivery' : 'equity-intraday';
}

export interface ChargeModel {
  /** `none`, `auto`, a preset name or a file path. */
  readonly name: string;
  readonly presets: readonly ChargePreset[];
  /** For the simulated venue: `now` gives the fill time (the virtual clock). */
  calculator(now: () => number): ChargeCalculator;
  /**
   * The same charges of one fill, with the name of the preset that priced it (under `auto` the one
   * chosen by instrument kind and product): the report's breakdown by component and preset.
   */
  priced(f: ChargeInput, ts: number): { readonly preset: string; readonly charges: ChargeBreakdown };
}

const ZERO: ChargeBreakdown = Object.freeze({ brokerage: 0, stt: 0, exchangeCharges: 0, stampDuty: 0, sebiTurnoverCharges: 0, gst: 0, totalCharges: 0 });

/** `--charges` value -> model: `none`, `auto` (by instrument kind and product), a preset name, a YAML path. */
export function chargeModel(spec: string): ChargeModel {
  if (spec === 'none') return { name: 'none', presets: [], calculator: () => () => ZERO, priced: () => ({ preset: 'none', charges: ZERO }) };
  if (spec === 'auto') {
    const byName = new Map(PRESET_NAMES.map((n) => [n, loadChargePreset(n)] as const));
    return {
      name: 'auto',
      presets: [...byName.values()],
      calculator: (now) => (f: ChargeInput) => chargesAt(byName.get(autoPresetName(f.instrument, f.product))!, f.side, f.qty, f.price, now()),
      priced: (f, ts) => {
        const name = autoPresetName(f.instrument, f.product);
        return { preset: name, charges: chargesAt(byName.get(name)!, f.side, f.qty, f.price, ts) };
      },
    };
  }
  const preset = loadChargePreset(spec);
  return {
    name: preset.name,
    presets: [preset],
    calculator: (now) => (f: ChargeInput) => chargesAt(preset, f.side, f.qty, f.price, now()),
    priced: (f, ts) => ({ preset: preset.name, charges: chargesAt(preset, f.side, f.qty, f.price, ts) }),
  };
}

/** Brokerage + every statutory charge of a breakdown. */
export function chargeTotal(c: ChargeBreakdown): Paise {
  return c.brokerage + c.totalCharges;
}
