/** A risk engine over hand-set state, for the checks' tests. */
import { EventBus } from '../../src/core/bus/event-bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { DeniedEvent, OrderSnapshot } from '../../src/core/events.js';
import { InstrumentTable, type Instrument } from '../../src/core/instruments.js';
import { MemoryStore } from '../../src/core/store.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import type { TrailingMode } from '../../src/core/intents.js';
import { RELIANCE } from '../support/instruments.js';

export { RELIANCE };
export const NIFTY_FUT: Instrument = {
  id: 'NFO_35001', exchange: 'NSE', segment: 'FNO', securityId: '35001', kind: 'FUTIDX',
  tradingSymbol: 'NIFTY25JANFUT', symbol: 'NIFTY', lotSize: 75, tickSize: 10, expiry: '2025-01-30',
};
export const NIFTY_INDEX: Instrument = {
  id: 'NIDX_13', exchange: 'NSE', segment: 'INDEX', securityId: '13', kind: 'INDEX',
  tradingSymbol: 'NIFTY', symbol: 'NIFTY', lotSize: 1, tickSize: 5,
};

export interface World {
  orders: Map<string, OrderSnapshot>;
  mods: Map<string, number>;
  net: Map<string, number>;
  prices: Map<string, number>;
  funds: number | undefined;
  pnl: number;
}

export function riskFixture(config: RiskConfigInput = {}, options: { trailingMode?: TrailingMode; instruments?: readonly Instrument[]; autoSlice?: boolean } = {}) {
  const clock = new VirtualClock(1_736_135_100_000);
  const bus = new EventBus();
  const store = new MemoryStore();
  const denied: DeniedEvent[] = [];
  bus.on('denied', (d) => denied.push(d));
  const world: World = { orders: new Map(), mods: new Map(), net: new Map(), prices: new Map([['NSE_2885', 142_650], ['NFO_35001', 2_350_000]]), funds: undefined, pnl: 0 };
  const risk = new RiskEngine({
    clock,
    bus,
    store,
    config,
    ...(options.trailingMode ? { trailingMode: options.trailingMode } : {}),
    ...(options.autoSlice ? { autoSlice: true } : {}),
    sources: {
      instruments: new InstrumentTable([RELIANCE, NIFTY_FUT, NIFTY_INDEX, ...(options.instruments ?? [])]),
      orders: {
        get: (t) => world.orders.get(t),
        openCount: () => [...world.orders.values()].filter((o) => !['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'].includes(o.status)).length,
        workingQty: (i, s) => [...world.orders.values()].filter((o) => o.instrument === i && o.side === s && !['FILLED', 'CANCELLED', 'REJECTED', 'EXPIRED'].includes(o.status)).reduce((a, o) => a + o.qty - o.filledQty, 0),
        modifications: (t) => world.mods.get(t) ?? 0,
      },
      portfolio: {
        netQty: (i) => world.net.get(i) ?? 0,
        lastPrice: (i) => world.prices.get(i),
        dailyPnl: () => world.pnl,
      },
      availableFunds: () => world.funds,
    },
  });
  return { clock, bus, store, risk, world, denied };
}

export function workingOrder(tag: string, over: Partial<OrderSnapshot> = {}): OrderSnapshot {
  return {
    tag, strategyId: 's1', orderId: `ID-${tag}`, instrument: 'NSE_2885', side: 'BUY', qty: 10, orderType: 'LIMIT', product: 'INTRADAY',
    validity: 'DAY', limitPrice: 142_000, status: 'OPEN', filledQty: 0, filledValue: 0, modifications: 0, ...over,
  };
}
