/**
 * Plausible starting prices for a synthetic universe, when no real previous close is known: a
 * deterministic function of the instrument and a seed, on the instrument's tick.
 */
import type { Instrument } from '../../../core/instruments.js';
import { roundToTick, type Paise } from '../../../core/money.js';
import { hashSeed, mix32 } from './rng.js';
import type { MarketInstrumentSpec } from './types.js';

/** Index levels (paise) used for index futures and for placing option premiums. */
export const INDEX_LEVELS: Readonly<Record<string, Paise>> = {
  NIFTY: 2_400_000,
  BANKNIFTY: 5_200_000,
  FINNIFTY: 2_350_000,
  MIDCPNIFTY: 1_250_000,
  SENSEX: 8_000_000,
  BANKEX: 5_800_000,
};

/**
 * A spec with a synthetic previous close (equities log-uniform in 50-5,000 rupees, index futures
 * near their index, options a small share of the strike) and, for stocks, a per-stock volatility.
 */
export function syntheticSpec(instrument: Instrument, seed: number): MarketInstrumentSpec {
  const h = hashSeed(instrument.id, seed ^ 0x5eed);
  const u = (h >>> 8) / 16777216;
  const u2 = (mix32(h) >>> 8) / 16777216;
  const tick = instrument.tickSize;
  let price: number;
  switch (instrument.kind) {
    case 'FUTIDX':
      price = (INDEX_LEVELS[instrument.symbol] ?? 2_000_000) * (1 + 0.004 * u);
      break;
    case 'OPTIDX':
    case 'OPTSTK': {
      const strike = instrument.strike ?? 100_000;
      price = strike * (0.002 + 0.03 * u * u);
      break;
    }
    case 'FUTSTK':
      price = Math.exp(Math.log(10_000) + u2 * Math.log(100)) * 1.002;
      break;
    default:
      price = Math.exp(Math.log(5_000) + u * Math.log(100));
  }
  const prevClose = Math.max(tick, roundToTick(price, tick));
  // Stocks differ in temperament: annual volatility 18-50% (indices and index derivatives keep the model's defaults).
  const u3 = (mix32(h ^ 0x9e3779b9) >>> 8) / 16777216;
  if (instrument.kind === 'EQUITY' || instrument.kind === 'FUTSTK') return { instrument, prevClose, volatility: 0.18 + 0.32 * u3 };
  return { instrument, prevClose };
}
