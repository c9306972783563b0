import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/core/store.js';

describe('MemoryStore', () => {
  it('keeps namespaces apart and copies values in and out', async () => {
    const s = new MemoryStore();
    const v = { orderId: 'DRV-1', mods: 3 };
    await s.set('orders', 'tg-1', v);
    v.mods = 99;
    const got = await s.get<{ orderId: string; mods: number }>('orders', 'tg-1');
    expect(got).toEqual({ orderId: 'DRV-1', mods: 3 });
    expect(await s.get('tags', 'tg-1')).toBeUndefined();
    expect(await s.entries('orders')).toEqual([['tg-1', { orderId: 'DRV-1', mods: 3 }]]);
    await s.delete('orders', 'tg-1');
    expect(await s.entries('orders')).toEqual([]);
  });

  it('increments counters and appends to logs', async () => {
    const s = new MemoryStore();
    expect(await s.incr('mods', 'DRV-1')).toBe(1);
    expect(await s.incr('mods', 'DRV-1', 24)).toBe(25);
    expect(await s.append('journal', { a: 1 })).toBe(1);
    expect(await s.append('journal', { a: 2 })).toBe(2);
    expect(await s.readLog('journal', 1)).toEqual([{ a: 2 }]);
  });
});
