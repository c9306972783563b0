import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/core/store.js';
import { APPEND_ONCE_LUA, INCR_ONCE_LUA, RedisStore, StoreError } from '../../../src/adapters/redis/store.js';
import { createStore, isDurableStore } from '../../../src/adapters/redis/create-store.js';
import { TEST_REDIS_URL, redisAvailable } from '../../support/redis.js';

const available = await redisAvailable();

describe.skipIf(!available)('RedisStore (real Redis)', () => {
  let admin: Redis;
  const stores: RedisStore[] = [];
  const open = (prefix = `test:${randomUUID()}:`): RedisStore => {
    const s = new RedisStore({ url: TEST_REDIS_URL, prefix, retry: { baseMs: 10, maxMs: 50 } });
    stores.push(s);
    return s;
  };

  beforeAll(() => {
    admin = new Redis(TEST_REDIS_URL);
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) {
      await s.clear().catch(() => {});
      await s.close();
    }
  });
  afterAll(() => admin.disconnect());

  it('round-trips JSON values per namespace and lists entries', async () => {
    const s = open();
    await s.set('orders', 'a', { tag: 'a', qty: 5, px: [1, 2], ok: true, none: null });
    await s.set('orders', 'b', 'text');
    await s.set('tags', 'a', 'DRV-1');
    expect(await s.get('orders', 'a')).toEqual({ tag: 'a', qty: 5, px: [1, 2], ok: true, none: null });
    expect(await s.get('orders', 'missing')).toBeUndefined();
    expect(new Map(await s.entries('orders'))).toEqual(new Map<string, unknown>([['a', { tag: 'a', qty: 5, px: [1, 2], ok: true, none: null }], ['b', 'text']]));
    await s.delete('orders', 'a');
    expect(await s.get('orders', 'a')).toBeUndefined();
    expect(await s.entries('empty')).toEqual([]);
  });

  it('increments atomically from a missing key and from a set value', async () => {
    const s = open();
    expect(await s.incr('mods', 'x')).toBe(1);
    expect(await s.incr('mods', 'x', 4)).toBe(5);
    await s.set('mods', 'y', 10);
    expect(await s.incr('mods', 'y', -3)).toBe(7);
    expect(await s.get('mods', 'x')).toBe(5);
    const all = await Promise.all(Array.from({ length: 50 }, () => s.incr('mods', 'z')));
    expect(new Set(all).size).toBe(50);
    expect(await s.get('mods', 'z')).toBe(50);
  });

  it('rejects a fractional increment with a named error', async () => {
    const s = open();
    await expect(s.incr('mods', 'x', 0.5)).rejects.toBeInstanceOf(StoreError);
  });

  it('appends to a log and reads it back in order from an offset', async () => {
    const s = open();
    for (let i = 0; i < 5; i++) expect(await s.append('journal', { i })).toBe(i + 1);
    expect(await s.readLog('journal')).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    expect(await s.readLog('journal', 3)).toEqual([{ i: 3 }, { i: 4 }]);
    expect(await s.readLog('nothing')).toEqual([]);
  });

  it('state survives closing and reopening (a daemon restart)', async () => {
    const prefix = `test:${randomUUID()}:`;
    const a = new RedisStore({ url: TEST_REDIS_URL, prefix });
    await a.set('risk', 'killSwitch', true);
    await a.append('journal', 'one');
    await a.close();
    const b = open(prefix);
    expect(await b.get('risk', 'killSwitch')).toBe(true);
    expect(await b.readLog('journal')).toEqual(['one']);
  });

  it('keeps namespaces of different prefixes apart', async () => {
    const a = open();
    const b = open();
    await a.set('ns', 'k', 1);
    expect(await b.get('ns', 'k')).toBeUndefined();
  });

  it('reconnects after its connection is killed and every write issued meanwhile lands exactly once', async () => {
    const s = open();
    await s.ready();
    let reconnected = 0;
    s.onReconnect(() => reconnected++);
    const id = await s.clientId();
    // Kill the store's own connection on the real server, then write at once, while it is down.
    await admin.client('KILL', 'ID', String(id));
    const writes = await Promise.all([
      s.set('orders', 'after-kill', { ok: true }),
      s.incr('mods', 'm', 2),
      s.append('journal', 'during-outage'),
      s.incr('mods', 'm', 3),
    ]);
    expect(writes[1]).toBe(2);
    expect(writes[3]).toBe(5);
    expect(await s.get('orders', 'after-kill')).toEqual({ ok: true });
    expect(await s.readLog('journal')).toEqual(['during-outage']);
    expect(await s.get('mods', 'm')).toBe(5);
    expect(reconnected).toBe(1);
    expect(s.reconnectCount).toBe(1);
    expect(s.connectionState).toBe('ready');
    expect(await s.clientId()).not.toBe(id);
  });

  it('a re-sent increment or append is applied once (operation ids are remembered)', async () => {
    // What autoResendUnfulfilledCommands would do after a reply was lost: run the same op twice.
    const prefix = `test:${randomUUID()}:`;
    const s = open(prefix);
    await s.ready();
    const hash = `${prefix}h:mods`;
    const op = `${prefix}op:fixed`;
    expect(await admin.eval(INCR_ONCE_LUA, 2, hash, op, 'k', 1, 60)).toBe(1);
    expect(await admin.eval(INCR_ONCE_LUA, 2, hash, op, 'k', 1, 60)).toBe(1);
    expect(await s.get('mods', 'k')).toBe(1);
    const list = `${prefix}l:journal`;
    const op2 = `${prefix}op:fixed2`;
    expect(await admin.eval(APPEND_ONCE_LUA, 2, list, op2, '"x"', 60)).toBe(1);
    expect(await admin.eval(APPEND_ONCE_LUA, 2, list, op2, '"x"', 60)).toBe(1);
    expect(await s.readLog('journal')).toEqual(['x']);
  });
});

describe('createStore', () => {
  it('gives a MemoryStore for "memory"', async () => {
    const s = createStore('memory');
    expect(s).toBeInstanceOf(MemoryStore);
    expect(isDurableStore(s)).toBe(false);
  });

  it('rejects anything else with a message naming the value and hiding a password', () => {
    expect(() => createStore('postgres://u:hunter2@h/db')).toThrow(/expected "memory" or a redis:\/\/ URL, got "postgres:\/\/u:\*\*\*@h\/db"/);
  });

  it.skipIf(!available)('gives a durable RedisStore for a redis:// URL', async () => {
    const s = createStore(TEST_REDIS_URL, { prefix: `test:${randomUUID()}:` });
    expect(isDurableStore(s)).toBe(true);
    await s.set('a', 'b', 1);
    expect(await s.get('a', 'b')).toBe(1);
    await (s as RedisStore).clear();
    await s.close();
  });
});
