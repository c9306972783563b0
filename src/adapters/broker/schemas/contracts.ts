/** Contracts and expiries (spec 2.5, 2.6, 4.5). Dates stay `YYYY-MM-DD`; strikes become paise. */
import { z } from 'zod';
import { idStr, int, isoDate, optPaise } from './common.js';

const optionType = z.union([z.enum(['CE', 'PE']), z.null(), z.literal('')]).optional().transform((v) => (v === 'CE' || v === 'PE' ? v : undefined));

const ContractBase = {
  trading_symbol: z.string().min(1),
  expiry: isoDate,
  strike_price: optPaise,
  option_type: optionType,
  lot_size: int,
};

export const ContractSchema = z.object({ security_id: idStr, ...ContractBase }).transform((c) => ({
  securityId: c.security_id,
  tradingSymbol: c.trading_symbol,
  expiry: c.expiry,
  strike: c.strike_price,
  optionType: c.option_type,
  lotSize: c.lot_size,
}));
export type Contract = z.output<typeof ContractSchema>;

export const ExpiredContractSchema = z
  .object({ ...ContractBase, instrument_type: z.string().optional() })
  .transform((c) => ({
    tradingSymbol: c.trading_symbol,
    instrumentType: c.instrument_type,
    expiry: c.expiry,
    strike: c.strike_price,
    optionType: c.option_type,
    lotSize: c.lot_size,
  }));
export type ExpiredContract = z.output<typeof ExpiredContractSchema>;

function page<T extends z.ZodType>(row: T) {
  return z.object({ count: int, page: int, page_size: int, instruments: z.array(row) }).transform((p) => ({
    count: p.count,
    page: p.page,
    pageSize: p.page_size,
    instruments: p.instruments as z.output<T>[],
  }));
}
export const ContractPageSchema = page(ContractSchema);
export type ContractPage = z.output<typeof ContractPageSchema>;
export const ExpiredContractPageSchema = page(ExpiredContractSchema);
export type ExpiredContractPage = z.output<typeof ExpiredContractPageSchema>;

export const ExpiriesSchema = z.array(isoDate);
export const ExpiredContractsSchema = z.array(ExpiredContractSchema);

export const InstrumentTypeFilter = z.enum(['OPTIDX', 'OPTSTK', 'FUTIDX', 'FUTSTK']);
export type InstrumentTypeFilter = z.infer<typeof InstrumentTypeFilter>;

/** Query of `/market/instruments/search` (and, with the window, of the expired search). */
export const ContractSearchSchema = z
  .object({
    underlying: z.string().min(1),
    segment: z.literal('DERIVATIVE').default('DERIVATIVE'),
    instrumentType: InstrumentTypeFilter.optional(),
    expiry: isoDate.optional(),
    /** Strikes in rupees, as the wire takes them. */
    strikeFrom: z.number().nonnegative().optional(),
    strikeTo: z.number().nonnegative().optional(),
    optionType: z.enum(['CE', 'PE']).optional(),
    pageSize: z.number().int().min(1).max(100).default(100),
  })
  .strict();
export type ContractSearchInput = z.input<typeof ContractSearchSchema>;

export const ExpiredSearchSchema = ContractSearchSchema.extend({ expiryFrom: isoDate, expiryTo: isoDate });
export type ExpiredSearchInput = z.input<typeof ExpiredSearchSchema>;

export function contractSearchQuery(s: z.output<typeof ContractSearchSchema>, page: number): Record<string, string> {
  const q: Record<string, string> = { underlying: s.underlying, segment: s.segment, page: String(page), page_size: String(s.pageSize) };
  if (s.instrumentType) q['instrument_type'] = s.instrumentType;
  if (s.expiry) q['expiry'] = s.expiry;
  if (s.strikeFrom !== undefined) q['strike_from'] = String(s.strikeFrom);
  if (s.strikeTo !== undefined) q['strike_to'] = String(s.strikeTo);
  if (s.optionType) q['option_type'] = s.optionType;
  return q;
}
