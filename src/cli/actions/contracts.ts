/** What `tarang contracts search|expiries|expired` do (declared in ../commands/contracts.ts). */
import { limited, print, rupees, table, withBroker, type ConnectionFlags } from '../../adapters/broker/cli-support.js';
import { searchContracts, searchExpiredContracts } from '../../adapters/broker/helpers/contracts.js';
import { InputException } from '../../adapters/broker/errors.js';
import { InstrumentTypeFilter, type Contract, type ExpiredContract } from '../../adapters/broker/schemas/contracts.js';

export interface SearchFlags extends ConnectionFlags {
  underlying: string;
  expiry?: string;
  type?: string;
  optionType?: string;
  strikeFrom?: string;
  strikeTo?: string;
  limit: string;
}

function filters(f: SearchFlags) {
  const type = f.type?.toUpperCase();
  if (type !== undefined && !InstrumentTypeFilter.safeParse(type).success) throw new InputException(`--type: expected OPTIDX, OPTSTK, FUTIDX or FUTSTK, got ${f.type}`, { field: 'type' });
  const opt = f.optionType?.toUpperCase();
  if (opt !== undefined && opt !== 'CE' && opt !== 'PE') throw new InputException(`--option-type: expected CE or PE, got ${f.optionType}`, { field: 'optionType' });
  const num = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new InputException(`--${name}: expected a strike in rupees, got ${v}`, { field: name });
    return n;
  };
  const strikeFrom = num(f.strikeFrom, 'strike-from');
  const strikeTo = num(f.strikeTo, 'strike-to');
  return {
    underlying: f.underlying.toUpperCase(),
    ...(f.expiry ? { expiry: f.expiry } : {}),
    ...(type ? { instrumentType: type as InstrumentTypeFilter } : {}),
    ...(opt ? { optionType: opt as 'CE' | 'PE' } : {}),
    ...(strikeFrom !== undefined ? { strikeFrom } : {}),
    ...(strikeTo !== undefined ? { strikeTo } : {}),
  };
}

function limitOf(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InputException(`--limit: expected a positive whole number, got ${v}`, { field: 'limit' });
  return n;
}

export async function search(f: SearchFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const limit = limitOf(f.limit);
    const rows: Contract[] = [];
    for await (const c of searchContracts(b.client, { ...filters(f), pageSize: 100 })) {
      rows.push(c);
      if (rows.length >= limit) break;
    }
    print(f, rows, () => table(rows.map((c) => ({ security_id: c.securityId, symbol: c.tradingSymbol, expiry: c.expiry, strike: rupees(c.strike), opt: c.optionType, lot: c.lotSize }))));
  });
}

export async function expiries(underlying: string, f: ConnectionFlags): Promise<void> {
  await withBroker(f, async (b) => {
    const rows = await b.client.expiries(underlying.toUpperCase());
    print(f, rows, () => `${rows.join('\n')}\n`);
  });
}

export async function expired(f: SearchFlags & { from?: string; to?: string; expiries?: boolean }): Promise<void> {
  await withBroker(f, async (b) => {
    const show = (rows: Array<{ tradingSymbol: string; expiry: string; strike?: number; optionType?: string; lotSize: number; instrumentType?: string }>) =>
      print(f, rows, () => table(rows.map((c) => ({ symbol: c.tradingSymbol, type: c.instrumentType, expiry: c.expiry, strike: rupees(c.strike), opt: c.optionType, lot: c.lotSize }))));
    if (f.expiries) {
      if (!f.from || !f.to) throw new InputException('--expiries needs --from and --to (at most one year apart)', { field: 'from' });
      const rows = limited(await b.client.expiredExpiries(f.underlying.toUpperCase(), f.from, f.to), limitOf(f.limit), 'expiries');
      print(f, rows, () => `${rows.join('\n')}\n`);
      return;
    }
    if (f.expiry && !f.from) {
      const type = filters(f).instrumentType;
      show(limited(await b.client.expiredContracts(f.underlying.toUpperCase(), f.expiry, type), limitOf(f.limit), 'contracts'));
      return;
    }
    if (!f.from || !f.to) throw new InputException('give --expiry for one expired chain, or --from and --to for a search', { field: 'from' });
    const limit = limitOf(f.limit);
    const rows: ExpiredContract[] = [];
    for await (const c of searchExpiredContracts(b.client, { ...filters(f), expiryFrom: f.from, expiryTo: f.to, pageSize: 100 })) {
      rows.push(c);
      if (rows.length >= limit) break;
    }
    show(rows);
  });
}
