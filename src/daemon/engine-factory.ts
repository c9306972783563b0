/** Builds the engine (src/core/bus/engine.ts) for the daemon: the same assembly as backtests, over the broker venue. */
import { Engine } from '../core/bus/engine.js';
import type { EngineFactoryInput } from './daemon.js';
import type { EngineHandle } from './parts.js';

export async function createDaemonEngine(input: EngineFactoryInput): Promise<EngineHandle> {
  const engine = await Engine.create({
    clock: input.clock,
    venue: input.session.venue,
    instruments: input.instruments,
    store: input.store,
    log: input.log,
    strategies: input.strategies,
    risk: input.config.risk,
    execution: input.config.execution,
  });
  return engine satisfies EngineHandle;
}
