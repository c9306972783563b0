/**
 * `GET /market/option-chain` (spec 4.3) answer -> `OptionChainSnapshot`. The spec leaves the field
 * names unshown; these are the simulator's (snake_case, `strikes[].ce/pe`, see
 * src/adapters/simulator/options/types.ts), decoded tolerantly: numbers may come as strings, a
 * missing leg or greek is simply absent, and `0` greeks from a broker that has none are dropped so
 * the strategy computes its own. The engine calls this with the broker client's raw `data`.
 */
import { z } from 'zod';
import { TarangError } from '../../core/errors.js';
import { parsePaise, type Paise } from '../../core/money.js';
import { scripCode } from '../../core/instruments.js';
import type { Exchange } from '../../core/enums.js';
import type { ChainStrike, OptionChainSnapshot, OptionQuote } from './option-data.js';
import { issuePath } from '../../core/zod-issues.js';

const num = z.union([z.number(), z.string().trim().min(1).transform((s) => Number(s.replaceAll(',', '')))]).pipe(z.number().finite());
const optNum = num.optional().catch(undefined);

const LegWire = z
  .object({
    security_id: z.union([z.string(), z.number()]).transform(String),
    trading_symbol: z.string(),
    option_type: z.enum(['CE', 'PE']),
    ltp: optNum,
    oi: optNum,
    volume: optNum,
    bid_price: optNum,
    ask_price: optNum,
    iv: optNum,
    delta: optNum,
    gamma: optNum,
    theta: optNum,
    vega: optNum,
    lot_size: optNum,
    tick_size: optNum,
  })
  .loose();

const ChainWire = z
  .object({
    underlying: z.object({ ltp: num, exchange: z.string().optional() }).loose(),
    expiry: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    strikes: z.array(z.object({ strike_price: num, ce: LegWire.optional().catch(undefined), pe: LegWire.optional().catch(undefined) }).loose()),
  })
  .loose();

export interface ChainWireContext {
  readonly underlying: string;
  readonly underlyingInstrument: string;
  /** When the chain was fetched, epoch ms (from the engine's clock). */
  readonly ts: number;
  /** Exchange of the options (NSE -> `NFO_` scrip codes). */
  readonly exchange: Exchange;
  /** Lot size and tick when the chain does not carry them (the engine looks them up in the master). */
  readonly contract: (securityId: string) => { readonly lotSize: number; readonly tickSize: Paise } | undefined;
}

/** The chain answer could not be read; the message names the field. */
export class OptionChainDecodeError extends TarangError {
  readonly code = 'OPTION_CHAIN_INVALID' as const;
}

export function chainFromWire(data: unknown, c: ChainWireContext): OptionChainSnapshot {
  const parsed = ChainWire.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? issuePath(first, '(root)') : '(root)';
    throw new OptionChainDecodeError(`option chain of ${c.underlying}: ${where}: ${first?.message ?? 'unreadable'}`, { underlying: c.underlying, where });
  }
  const w = parsed.data;
  const strikes: ChainStrike[] = w.strikes
    .map((row) => {
      const strike = parsePaise(row.strike_price, 'strike_price');
      const ce = row.ce ? leg(row.ce, strike, w.expiry, c) : undefined;
      const pe = row.pe ? leg(row.pe, strike, w.expiry, c) : undefined;
      return { strike, ...(ce ? { ce } : {}), ...(pe ? { pe } : {}) };
    })
    .sort((a, b) => a.strike - b.strike);
  return {
    ts: c.ts,
    underlying: c.underlying,
    underlyingInstrument: c.underlyingInstrument,
    spot: parsePaise(round2(w.underlying.ltp), 'underlying.ltp'),
    expiry: w.expiry,
    strikes,
  };
}

function leg(l: z.output<typeof LegWire>, strike: Paise, expiry: string, c: ChainWireContext): OptionQuote | undefined {
  const master = c.contract(l.security_id);
  const lotSize = master?.lotSize ?? l.lot_size;
  const tickSize = master?.tickSize ?? (l.tick_size === undefined ? undefined : parsePaise(l.tick_size, 'tick_size'));
  if (lotSize === undefined || tickSize === undefined) return undefined; // untradeable without them
  const price = (v: number | undefined): Paise | undefined => (v === undefined || !(v > 0) ? undefined : parsePaise(round2(v)));
  const ltp = price(l.ltp);
  const bid = price(l.bid_price);
  const ask = price(l.ask_price);
  const hasGreeks = l.iv !== undefined && l.iv > 0 && l.delta !== undefined && l.gamma !== undefined && l.theta !== undefined && l.vega !== undefined;
  return {
    instrument: scripCode(c.exchange, 'FNO', l.security_id),
    tradingSymbol: l.trading_symbol,
    optionType: l.option_type,
    strike,
    expiry,
    lotSize,
    tickSize,
    ...(ltp !== undefined ? { ltp } : {}),
    ...(bid !== undefined ? { bid } : {}),
    ...(ask !== undefined ? { ask } : {}),
    ...(l.oi !== undefined ? { oi: l.oi } : {}),
    ...(l.volume !== undefined ? { volume: l.volume } : {}),
    ...(hasGreeks ? { greeks: { iv: l.iv!, delta: l.delta!, gamma: l.gamma!, theta: l.theta!, vega: l.vega! } } : {}),
  };
}

/** Rupee floats from JSON (1234.5500000001) to two decimals before exact parsing. */
function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
