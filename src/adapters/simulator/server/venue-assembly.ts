/**
 * Builds the simulated venue the server exposes: the instrument universe, the data services
 * (history, option chains), the live market and the matching engine, wired together and adapted
 * to `SimVenue`. This is the one file that knows the other simulator modules' shapes.
 */
import type { MarketCalendar } from '../../../core/calendar.js';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/log.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import { HistoryService } from '../history/index.js';
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
import { MinuteRecorder } from './minute-recorder.js';
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
}

export async function assembleVenue(o: VenueAssemblyOptions): Promise<SimVenue & { readonly market: LiveMarket; readonly engine: MatchingEngine; readonly universe: Universe }> {
  const now = o.clock.now();
  const session = o.calendar.currentOrNextSession(now);
  const today = istDate(now) === session.date ? session.date : istDate(now);
  const universe = Universe.build({
    seed: o.seed,
    today,
    calendar: o.calendar,
    ...(o.nseEquities !== undefined ? { nseEquities: o.nseEquities } : {}),
    ...(o.bseEquities !== undefined ? { bseEquities: o.bseEquities } : {}),
  });
  const history = new HistoryService({ universe, clock: o.clock });
  const market = new LiveMarket({
    clock: o.clock,
    calendar: o.calendar,
    instruments: universe.instruments(),
    seed: o.seed,
    log: o.log,
    previousClose: (code, date) => {
      const inst = universe.get(code);
      return inst ? referenceClose(universe, inst, o.calendar.previousTradingDay(date)) : undefined;
    },
    ...(o.tickIntervals ? { tickIntervals: o.tickIntervals } : {}),
    ...(o.pumpMs !== undefined ? { pumpMs: o.pumpMs } : {}),
  });
  const model = market.model;
  const recorder = new MinuteRecorder(universe.instruments(), () => model.currentSessionOpen, model.options.sessionLengthMs);
  market.onTick((t) => recorder.record(t));
  history.setLiveSource(recorder);
  const chains = new OptionChainService({ universe, history, clock: o.clock, livePrice: (code) => model.lastPrice(code) });
  const engine = new MatchingEngine({
    instruments: universe.table,
    clock: o.clock,
    tsl: o.tsl,
    sessionOpen: o.calendar.isOpen(now),
    depth: (id) => (model.has(id) ? model.depth(id) : undefined),
    ...(o.account ? { accountOptions: o.account } : {}),
  });
  market.start(engine);

  const data: VenueData = {
    masterCsv: (source) => universe.masterCsv(source),
    historical: (interval, q) => history.historical(interval, q),
    expiredHistorical: (interval, q) => history.expiredHistorical(interval, q),
    optionChain: (q) => chains.chain(q),
    utilityChain: (b) => chains.utilityChain(b),
    utilityExpiries: (b) => chains.utilityExpiries(b),
    greeks: (b) => chains.greeks(b),
    searchContracts: (q) => searchContracts(universe, q),
    listExpiries: (q) => listExpiries(universe, q),
    searchExpiredContracts: (q) => searchExpiredContracts(universe, q),
    listExpiredExpiries: (q) => listExpiredExpiries(universe, q),
    expiredContracts: (q) => expiredContracts(universe, q),
  };

  return {
    data,
    market,
    engine,
    universe,
    instrument: (code) => universe.get(code),
    resolveSecurity(securityId, exchange) {
      const prefixes = exchange === 'BSE' ? ['BSE', 'BFO', 'BIDX'] : exchange === 'NSE' ? ['NSE', 'NFO', 'NIDX'] : ['NSE', 'NFO', 'NIDX', 'BSE', 'BFO', 'BIDX'];
      for (const p of prefixes) if (universe.get(`${p}_${securityId}`)) return `${p}_${securityId}`;
      return undefined;
    },
    quote: (code): MarketQuote | undefined => (model.has(code) ? model.quote(code) : undefined),
    lastTick: (code): MarketTick | undefined => (model.has(code) ? model.last(code) : undefined),
    setPrice(code, price: Paise) {
      if (!model.has(code)) return { ok: false, message: `scrip_code: ${code} is not modelled by the market` };
      const t = market.setPrice(code, price);
      return { ok: true, price: t.ltp };
    },
    onTick: (listener: TickListener) => market.onTick(listener),
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
    holdings: () => engine.account.holdings(),
    funds: () => engine.account.funds(),
    margin: (q) => {
      market.engage(q.instrument);
      return engine.calculateMargin(q);
    },
    onEvent: (listener: (e: SimEvent) => void) => engine.subscribe(listener),
    close: () => market.close(),
  };
}
