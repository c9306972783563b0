/**
 * The instrument model. An instrument is identified inside tarang by its scrip code
 * `<PREFIX>_<SECURITY_ID>` (the REST form of spec 4.2; the WebSocket uses `PREFIX:ID`), where the
 * prefix names exchange and segment: NSE, BSE (cash), NFO, BFO (derivatives), NIDX, BIDX (indices).
 */
import type { Exchange, Segment } from './enums.js';
import type { Paise } from './money.js';

export const ScripPrefix = { NSE: 'NSE', BSE: 'BSE', NFO: 'NFO', BFO: 'BFO', NIDX: 'NIDX', BIDX: 'BIDX' } as const;
export type ScripPrefix = (typeof ScripPrefix)[keyof typeof ScripPrefix];

export const InstrumentKind = {
  EQUITY: 'EQUITY',
  INDEX: 'INDEX',
  FUTIDX: 'FUTIDX',
  FUTSTK: 'FUTSTK',
  OPTIDX: 'OPTIDX',
  OPTSTK: 'OPTSTK',
  OTHER: 'OTHER',
} as const;
export type InstrumentKind = (typeof InstrumentKind)[keyof typeof InstrumentKind];

export const OptionType = { CE: 'CE', PE: 'PE' } as const;
export type OptionType = (typeof OptionType)[keyof typeof OptionType];

export interface Instrument {
  /** Scrip code, e.g. `NSE_2885`, `NFO_43219`, `NIDX_13`. */
  readonly id: string;
  readonly exchange: Exchange;
  readonly segment: Segment;
  readonly securityId: string;
  readonly kind: InstrumentKind;
  readonly tradingSymbol: string;
  /** Base symbol (`SYMBOL_NAME`), e.g. RELIANCE, NIFTY. */
  readonly symbol: string;
  /** Lot size (1 for cash equity). Order quantities must be multiples of it. */
  readonly lotSize: number;
  /** Minimum price step, paise. */
  readonly tickSize: Paise;
  /** Derivatives only: `YYYY-MM-DD`. */
  readonly expiry?: string;
  readonly strike?: Paise;
  readonly optionType?: OptionType;
  /** Exchange series (EQ, BE, ...), when given. */
  readonly series?: string;
  /** Free-text descriptive symbol (`CUSTOM_SYMBOL`). */
  readonly displayName?: string;
}

export function scripPrefix(exchange: Exchange, segment: Segment): ScripPrefix {
  if (segment === 'INDEX') return exchange === 'NSE' ? 'NIDX' : 'BIDX';
  if (segment === 'FNO' || segment === 'CURRENCY') return exchange === 'NSE' ? 'NFO' : 'BFO';
  return exchange;
}

export function scripCode(exchange: Exchange, segment: Segment, securityId: string): string {
  return `${scripPrefix(exchange, segment)}_${securityId}`;
}

/**
 * The indices with derivatives, by the exchange that lists them: a contract named by trading symbol
 * alone (a CSV series, an expired contract) is an index contract when its underlying is one of
 * these, and trades on that exchange's F&O segment (NFO or BFO); any other underlying is a stock.
 */
export const INDEX_DERIVATIVE_EXCHANGE: Readonly<Record<string, Exchange>> = {
  NIFTY: 'NSE',
  BANKNIFTY: 'NSE',
  FINNIFTY: 'NSE',
  MIDCPNIFTY: 'NSE',
  NIFTYNXT50: 'NSE',
  SENSEX: 'BSE',
  BANKEX: 'BSE',
  SENSEX50: 'BSE',
};

/** The exchange listing derivatives on the index `underlying`; undefined for a stock. */
export function indexDerivativeExchange(underlying: string): Exchange | undefined {
  return Object.hasOwn(INDEX_DERIVATIVE_EXCHANGE, underlying) ? INDEX_DERIVATIVE_EXCHANGE[underlying] : undefined;
}

export interface ParsedScrip {
  readonly prefix: ScripPrefix;
  readonly securityId: string;
  readonly exchange: Exchange;
  readonly segment: Segment;
}

const SCRIP_RE = /^(NSE|BSE|NFO|BFO|NIDX|BIDX)[_:](\d+)$/;

/** Parses `NSE_2885` or `NSE:2885`; undefined when malformed. */
export function parseScripCode(code: string): ParsedScrip | undefined {
  const m = SCRIP_RE.exec(code);
  if (!m) return undefined;
  const prefix = m[1] as ScripPrefix;
  const exchange: Exchange = prefix === 'BSE' || prefix === 'BFO' || prefix === 'BIDX' ? 'BSE' : 'NSE';
  const segment: Segment = prefix === 'NFO' || prefix === 'BFO' ? 'FNO' : prefix === 'NIDX' || prefix === 'BIDX' ? 'INDEX' : 'EQUITY';
  return { prefix, securityId: m[2]!, exchange, segment };
}

/** A read-only lookup of instruments by scrip code, shared by risk, strategies and execution. */
export interface InstrumentLookup {
  get(id: string): Instrument | undefined;
}

export class InstrumentTable implements InstrumentLookup {
  private readonly byId = new Map<string, Instrument>();
  private readonly bySymbol = new Map<string, Instrument>();

  constructor(instruments: Iterable<Instrument> = []) {
    for (const i of instruments) this.add(i);
  }

  add(i: Instrument): void {
    this.byId.set(i.id, i);
    this.bySymbol.set(`${i.exchange}:${i.tradingSymbol}`, i);
  }

  get(id: string): Instrument | undefined {
    return this.byId.get(id);
  }

  /** By exchange and trading symbol, e.g. (`NSE`, `RELIANCE`). */
  bySymbolName(exchange: Exchange, tradingSymbol: string): Instrument | undefined {
    return this.bySymbol.get(`${exchange}:${tradingSymbol}`);
  }

  get size(): number {
    return this.byId.size;
  }

  values(): IterableIterator<Instrument> {
    return this.byId.values();
  }
}
