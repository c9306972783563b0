/**
 * The pre-trade risk checks of the engine (src/risk) for an order placed or changed by hand: the
 * same RiskEngine and checks, over the account as the broker shows it now instead of the engine's
 * live state. Read once per command: the order book (working orders, their quantities and
 * modification counts), positions, funds and a full quote of the instrument (last price and
 * circuit band). Limits come from the `risk:` section of `--config FILE` (rupees, as the daemon
 * reads them), else the documented defaults. The clock is the broker's (its `Date` header): the
 * intraday cutoff is judged on the market's time, which on the simulator is not the wall's.
 *
 * What differs from the engine: the kill switch and trading state of a running daemon live in its
 * store and are not read here (the config's `tradingState` is); positions and P&L are the
 * broker's, account-wide, not per strategy.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Broker } from '../adapters/broker/broker.js';
import { fullQuotes } from '../adapters/broker/helpers/quotes.js';
import type { FullQuote } from '../adapters/broker/schemas/quotes.js';
import type { VenueFunds, VenueOrderState, VenuePosition } from '../adapters/execution/venue.js';
import { EventBus } from '../core/bus/event-bus.js';
import { WallClock } from '../core/clock.js';
import { isTerminalStatus, type Side } from '../core/enums.js';
import { ConfigError } from '../core/errors.js';
import type { OrderSnapshot } from '../core/events.js';
import type { Intent } from '../core/intents.js';
import type { InstrumentLookup } from '../core/instruments.js';
import { zodIssueLines } from '../core/zod-issues.js';
import { RiskConfigSchema, type RiskConfigInput } from '../risk/config.js';
import { RiskEngine } from '../risk/risk-engine.js';
import type { Denial } from '../risk/types.js';

/** The account as the broker shows it, read for one manual order. */
export interface AccountView {
  readonly book: readonly VenueOrderState[];
  readonly positions: readonly VenuePosition[];
  readonly funds: VenueFunds | undefined;
  readonly quote: FullQuote | undefined;
  /** Modifications spent per order id, when known apart from the book (this host's manual ones). */
  readonly modifications?: (orderId: string) => number;
}

/** The key risk knows a broker order by (risk's `target` of a modify or cancel): its id, as its messages name it. */
export function orderKey(orderId: string): string {
  return orderId;
}

/** The `risk:` section of a config file (rupees), or undefined without a file. */
export function riskConfigFromFile(file: string | undefined): RiskConfigInput | undefined {
  if (!file) return undefined;
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read it as yaml: ${(e as Error).message}`, { file });
  }
  const section = doc && typeof doc === 'object' ? (doc as Record<string, unknown>)['risk'] : undefined;
  if (section === undefined || section === null) return undefined;
  const r = RiskConfigSchema.safeParse(section);
  if (!r.success) throw new ConfigError(`${file}: risk: ${zodIssueLines(r.error, { prefix: 'risk.', root: 'risk' }).join('; ')}`, { file });
  return r.data;
}

function snapshot(s: VenueOrderState, modifications: number): OrderSnapshot | undefined {
  if (!s.instrument || !s.side || s.qty === undefined) return undefined;
  return {
    tag: orderKey(s.orderId),
    strategyId: 'manual',
    orderId: s.orderId,
    instrument: s.instrument,
    side: s.side,
    qty: s.qty,
    orderType: s.orderType ?? 'LIMIT',
    product: s.product ?? 'INTRADAY',
    validity: s.validity ?? 'DAY',
    ...(s.limitPrice !== undefined ? { limitPrice: s.limitPrice } : {}),
    ...(s.triggerPrice !== undefined ? { triggerPrice: s.triggerPrice } : {}),
    status: s.status,
    ...(s.venueStatus !== undefined ? { venueStatus: s.venueStatus } : {}),
    filledQty: s.filledQty ?? 0,
    filledValue: Math.round((s.filledQty ?? 0) * (s.avgPrice ?? 0)),
    modifications,
  };
}

/** A risk engine over one AccountView. `dryRun(intent)` answers null (pass) or the denial. */
export function manualRisk(view: AccountView, instruments: InstrumentLookup, now: number, config?: RiskConfigInput): { check(intent: Intent): Denial | null } {
  const spent = (s: VenueOrderState): number => Math.max(s.modifications ?? 0, view.modifications?.(s.orderId) ?? 0);
  const orders = new Map<string, OrderSnapshot>();
  for (const s of view.book) {
    const snap = snapshot(s, spent(s));
    if (snap) orders.set(snap.tag, snap);
  }
  const working = [...orders.values()].filter((o) => !isTerminalStatus(o.status));
  const q = view.quote;
  const engine = new RiskEngine({
    clock: new WallClock({ start: now }),
    bus: new EventBus(),
    ...(config ? { config } : {}),
    trailingMode: 'engine',
    sources: {
      instruments,
      orders: {
        get: (tag) => orders.get(tag),
        openCount: () => working.length,
        workingQty: (instrument: string, side: Side) => working.filter((o) => o.instrument === instrument && o.side === side).reduce((n, o) => n + o.qty - o.filledQty, 0),
        modifications: (tag) => orders.get(tag)?.modifications ?? 0,
      },
      portfolio: {
        netQty: (instrument) => view.positions.filter((p) => p.instrument === instrument).reduce((n, p) => n + p.netQty, 0),
        lastPrice: () => q?.ltp,
        dailyPnl: () => (view.funds ? (view.funds.realizedPnl ?? 0) + (view.funds.unrealizedPnl ?? 0) : 0),
      },
      availableFunds: () => view.funds?.available,
      circuit: () => (q?.upperCircuit !== undefined && q.lowerCircuit !== undefined ? { upper: q.upperCircuit, lower: q.lowerCircuit } : undefined),
    },
  });
  return { check: (intent) => engine.dryRun(intent) };
}

/** Reads the account for one manual order on `instrument` (its quote only when given). */
export async function readAccount(broker: Broker, venue: { orderBook(): Promise<readonly VenueOrderState[]>; positions(): Promise<readonly VenuePosition[]>; funds(): Promise<VenueFunds> }, instrument?: string): Promise<Omit<AccountView, 'modifications'>> {
  const [book, positions, funds, quotes] = await Promise.all([
    venue.orderBook(),
    venue.positions(),
    venue.funds(),
    instrument ? fullQuotes(broker.client, [instrument]) : Promise.resolve(undefined),
  ]);
  return { book, positions, funds, quote: instrument ? quotes?.quotes[instrument] : undefined };
}
