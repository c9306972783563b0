/**
 * Circuit limits in paper trading: the daemon reads each subscribed instrument's band from the
 * simulator's full quotes (spec 2.4, over HTTP) at start and feeds the risk layer, so an order
 * priced outside the band is denied before it reaches the broker, and one inside goes through.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events.js';
import { startPaperDaemon, type PaperDaemon } from '../strategies/orb-smart/paper-daemon.js';

const LIMIT_AT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'limit-at.ts');
const HDFCBANK = 'NSE_1333';

describe('circuit bands in paper trading', () => {
  let paper: PaperDaemon;
  beforeAll(async () => {
    paper = await startPaperDaemon({
      day: '2026-11-19',
      strategies: [{ id: 'limits', strategy: LIMIT_AT, params: { instrument: HDFCBANK, factors: [1.001, 1.5] } }],
    });
  }, 60_000);
  afterAll(async () => {
    await paper?.close();
  });

  it('loads the band from full quotes and denies a limit outside it, letting the one inside through', async () => {
    const engine = paper.daemon.engineHandle!;
    const q = paper.sim.venue.quote(HDFCBANK)!;
    expect(q.upperCircuit).toBeGreaterThan(q.lowerCircuit!);
    expect(engine.risk.circuit(HDFCBANK)).toEqual({ lower: q.lowerCircuit, upper: q.upperCircuit });

    await paper.run(10_000);
    const denied = paper.events.filter((e): e is Extract<Event, { type: 'denied' }> => e.type === 'denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]!.code).toBe('CIRCUIT_LIMIT');
    expect(denied[0]!.reason).toMatch(/limitPrice .* is outside the circuit band/);
    const sent = paper.sim.venue.orders().filter((o) => o.instrument === HDFCBANK);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.limitPrice).toBeLessThanOrEqual(q.upperCircuit!);
  }, 30_000);
});
