import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleStopSignals } from '../../src/daemon/signals.js';

class FakeProcess extends EventEmitter {
  exits: number[] = [];
  exit(code?: number): never {
    this.exits.push(code ?? 0);
    return undefined as never;
  }
}

describe('handleStopSignals', () => {
  it('stops cleanly on the first signal and forces an exit on the second', async () => {
    const proc = new FakeProcess();
    const stops: string[] = [];
    const forced: string[] = [];
    const off = handleStopSignals({ stop: async (s) => void stops.push(s), onForce: (s) => forced.push(s), proc: proc as unknown as NodeJS.Process });
    proc.emit('SIGTERM', 'SIGTERM');
    expect(stops).toEqual(['SIGTERM']);
    expect(proc.exits).toEqual([]);
    proc.emit('SIGINT', 'SIGINT');
    expect(forced).toEqual(['SIGINT']);
    expect(proc.exits).toEqual([130]);
    off();
    expect(proc.listenerCount('SIGINT')).toBe(0);
  });
});
