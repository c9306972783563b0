/**
 * Builds the simulated venue the server exposes: the instrument universe, the data services
 * (history, option chains), the live market and the matching engine, wired together and adapted
 * to `SimVenue`. This is the one file that knows the other simulator modules' shapes.
 */
import type { MarketCalendar } from '../../../core/calendar.js';
import type { Clock, TimerHandle } from '../../../core/clock.js';
import type { Logger } from '../../../core/log.js';
import type { Paise } from '../../../core/money.js';
import { DAY_MS, IST_OFFSET_MS, istDate } from '../../../core/time.js';
import { HistoryService, MAX_SCRIP_CODES_PER_CALL, MinuteBarRecorder } from '../history/index.js';
import { MatchingEngine, type VenueAccountOptions } from '../matching/index.js';
import type { SimEvent } from '../matching/types.js';
import { OptionChainService } from '../options/index.js';
import { Universe } from '../universe/index.js';
import {
  expiredContracts,
  listExpiredExpiries,
  listExpiries,
  searchContracts,
  searchExpiredContracts,
} from '../universe/index.js';
import { LiveMarket, type TickIntervals } from './live-market.js';
import { referenceClose } from './reference-prices.js';
import type { MarketQuote, MarketTick, SimVenue, TickListener, VenueData } from './venue.js';

export interface VenueAssemblyOptions {
  readonly clock: Clock;
  readonly seed: number;
  readonly calendar: MarketCalendar;
  readonly tsl: 'on' | 'off';
  readonly log: Logger;
  /** Universe size (smaller in tests). */
  readonly nseEquities?: number;
  readonly bseEquities?: number;
  readonly tickIntervals?: TickIntervals;
  /** Market ms between market steps. Default 250. */
  readonly pumpMs?: number;
  readonly account?: Omit<VenueAccountOptions, 'instruments'>;
  /** MARKET orders become LIMIT at last price +/- this % (default: config/market-rules/retail-algo.yaml). */
  readonly marketProtectionPct?: number;
}

export type AssembledVenue = SimVenue & {
  readonly market: LiveMarket;
  readonly engine: MatchingEngine;
  /** The universe of the simulator's current trading date (rebuilt when the date changes). */
  readonly universe: () => Universe;
  readonly recorder: MinuteBarRecorder;
};

/** The trading date a universe is built for: the session's date on a trading day, else the calendar date. */
function tradingDate(calendar: MarketCalendar, now: number): string {
  const session = calendar.currentOrNextSession(now);
  return istDate(now) === session.date ? session.date : istDate(now);
}

export async function assembleVenue(o: VenueAssemblyOptions): Promise<AssembledVenue> {
  const now = o.clock.now();
  const build = (today: string): Universe =>
    Universe.shared({
      seed: o.seed,
      today,
      calendar: o.calendar,
      ...(o.nseEquities !== undefined ? { nseEquities: o.nseEquities } : {}),
      ...(o.bseEquities !== undefined ? { bseEquities: o.bseEquities } : {}),
    });
  // Today's candles are the ticks the market produced (live, and replayed for instruments
  // modelled late), so they agree with quotes and the WebSocket.
  const recorder = new MinuteBarRecorder();
  const model = {
    market: undefined as LiveMarket | undefined,
  };
  const services = (u: Universe): { universe: Universe; history: HistoryService; chains: OptionChainService } => {
    const history = new HistoryService({ universe: u, clock: o.clock, live: recorder });
    const chains = new OptionChainService({
      universe: u,
      history,
      clock: o.clock,
      // A chain shows the prices an order on its strikes would meet: the spot and every listed
      // strike asked for are modelled (the strikes of one call merge into one model at the next step).
      livePrice: (code) => model.market?.last(code)?.ltp,
      liveMark: (code) => model.market?.linkedMark(code),
      prepare: (codes) => model.market?.activate(codes),
    });
    return { universe: u, history, chains };
  };
  // One IST day at a time: the universe (listed expiries, contracts) follows the clock's date.
  // Contract ids are stable across rebuilds, so orders and positions keep their instruments.
  let day = Math.floor((now + IST_OFFSET_MS) / DAY_MS);
  let current = services(build(tradingDate(o.calendar, now)));
  const at = (): { universe: Universe; history: HistoryService; chains: OptionChainService } => {
    const t = o.clock.now();
    const d = Math.floor((t + IST_OFFSET_MS) / DAY_MS);
    if (d !== day) {
      day = d;
      const date = tradingDate(o.calendar, t);
      if (date !== current.universe.today) {
        // The old date is not asked for again by this venue: let it go.
        Universe.release(current.universe);
        current = services(build(date));
        o.log.info({ date, instruments: current.universe.instruments().length }, 'universe rolled to a new trading date');
      }
    }
    return current;
  };
  const universe = (): Universe => at().universe;

  const market = new LiveMarket({
    clock: o.clock,
    calendar: o.calendar,
    lookup: (code) => universe().get(code),
    seed: o.seed,
    log: o.log,
    // The history's close (what yesterday's candles end at), else the universe's reference mark.
    previousClose: (code, date) => {
      const { universe: u, history } = at();
      const fromHistory = history.previousClose(code, date);
      if (fromHistory !== undefined && fromHistory > 0) return fromHistory;
      const inst = u.get(code);
      return inst ? referenceClose(u, inst, o.calendar.previousTradingDay(date)) : undefined;
    },
    // Contracts are priced off their underlying as the chain and the candles price them: options
    // on the volatility surface, futures at cost of carry.
    derivativeLink: (inst) => {
      const { universe: u, history } = at();
      const c = u.contractOf(inst.id);
      const und = c ? u.underlying(c.underlying) : undefined;
      if (!c || !und) return undefined;
      const valuer = c.strike !== null && c.optionType !== null ? history.pricer.modelValuer(und, c) : history.pricer.futureValuer(c);
      return { underlying: und.instrument.id, valuer };
    },
    ...(o.tickIntervals ? { tickIntervals: o.tickIntervals } : {}),
    ...(o.pumpMs !== undefined ? { pumpMs: o.pumpMs } : {}),
  });
  model.market = market;
  market.onTick((t) => recorder.record(t));
  market.onCatchUp((t) => recorder.record(t));
  // Yesterday's bars go at midnight IST, not with the next session's first tick (after a weekend, days later).
  let midnight: TimerHandle | undefined;
  const armMidnight = (): void => {
    const t = o.clock.now();
    const next = (Math.floor((t + IST_OFFSET_MS) / DAY_MS) + 1) * DAY_MS - IST_OFFSET_MS;
    midnight = o.clock.setTimeout(() => {
      recorder.release(o.clock.now());
      armMidnight();
    }, next - t);
  };
  armMidnight();
  const engine = new MatchingEngine({
    // Instruments of positions outlive their listing: after a roll, fall back to what the market modelled.
    instruments: { get: (id) => universe().get(id) ?? market.instrumentOf(id) },
    clock: o.clock,
    tsl: o.tsl,
    sessionOpen: o.calendar.isOpen(now),
    depth: (id) => market.depth(id),
    // Asked at the close of a contract's expiry session: S for its cash settlement at the next open.
    underlyingClose: (contract) => market.underlyingPrice(contract.id),
    ...(o.account ? { accountOptions: o.account } : {}),
    ...(o.marketProtectionPct !== undefined ? { marketProtectionPct: o.marketProtectionPct } : {}),
  });
  market.start(engine);
  /** Candle requests model their instruments first, so today's candles are the live path. */
  const touchScrips = (q: Readonly<Record<string, string | undefined>>): void => {
    const codes = (q['scrip-codes'] ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '');
    if (codes.length <= MAX_SCRIP_CODES_PER_CALL) market.activate(codes);
  };

  const data: VenueData = {
    masterCsv: (source) => universe().masterCsv(source),
    historical: (interval, q) => {
      touchScrips(q);
      return at().history.historical(interval, q);
    },
    expiredHistorical: (interval, q) => at().history.expiredHistorical(interval, q),
    optionChain: (q) => at().chains.chain(q),
    utilityChain: (b) => at().chains.utilityChain(b),
    utilityExpiries: (b) => at().chains.utilityExpiries(b),
    greeks: (b) => at().chains.greeks(b),
    searchContracts: (q) => searchContracts(universe(), q),
    listExpiries: (q) => listExpiries(universe(), q),
    searchExpiredContracts: (q) => searchExpiredContracts(universe(), q),
    listExpiredExpiries: (q) => listExpiredExpiries(universe(), q),
    expiredContracts: (q) => expiredContracts(universe(), q),
  };

  return {
    marketProtectionPct: engine.settings.marketProtectionPct,
    data,
    market,
    engine,
    universe,
    recorder,
    instrument: (code) => {
      const inst = universe().get(code);
      // Looked up to be used (a subscribe, an order): model it with the next activation's batch.
      if (inst) market.expect(code);
      return inst;
    },
    resolveSecurity(securityId, exchange) {
      const prefixes = exchange === 'BSE' ? ['BSE', 'BFO', 'BIDX'] : exchange === 'NSE' ? ['NSE', 'NFO', 'NIDX'] : ['NSE', 'NFO', 'NIDX', 'BSE', 'BFO', 'BIDX'];
      const u = universe();
      for (const p of prefixes) if (u.get(`${p}_${securityId}`)) return `${p}_${securityId}`;
      return undefined;
    },
    prepare: (codes) => market.activate(codes),
    quote: (code): MarketQuote | undefined => market.quote(code),
    bookTotals: (code) => market.bookTotals(code),
    lastTick: (code): MarketTick | undefined => market.last(code),
    setPrice(code, price: Paise) {
      const t = market.setPrice(code, price);
      if (!t) return { ok: false, message: `scrip_code: ${code} is not modelled by the market` };
      return { ok: true, price: t.ltp };
    },
    onTick: (listener: TickListener) => market.onTick(listener),
    onDropped: (listener) => market.onDropped(listener),
    placeOrder: (req) => {
      market.engage(req.instrument);
      return engine.placeOrder(req);
    },
    modifyOrder: (id, req) => engine.modifyOrder(id, req),
    cancelOrder: (id) => engine.cancelOrder(id),
    order: (id) => engine.getOrder(id),
    orders: () => engine.orders(),
    trades: () => engine.trades(),
    tradesOf: (id) => engine.trades(id),
    placeSmartOrder: (req) => {
      market.engage(req.instrument);
      return engine.placeSmartOrder(req);
    },
    modifySmartOrder(id, req) {
      engine.modifySmartOrder(id, req);
      return engine.getSmartOrder(id)!;
    },
    cancelSmartOrder(id) {
      engine.cancelSmartOrder(id);
      return engine.getSmartOrder(id)!;
    },
    smartOrder: (id) => engine.getSmartOrder(id),
    smartOrders: () => engine.smartOrders(),
    positions: () => engine.account.positions(),
    settlements: () => engine.settlements(),
    holdings: () => engine.account.holdings(),
    funds: () => engine.account.funds(),
    margin: (q) => {
      market.engage(q.instrument);
      return engine.calculateMargin(q);
    },
    onEvent: (listener: (e: SimEvent) => void) => engine.subscribe(listener),
    close: () => {
      midnight?.cancel();
      market.close();
    },
  };
}
