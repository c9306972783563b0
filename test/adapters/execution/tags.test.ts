/**
 * Client tags: ours (legs, auto-slices) and those of orders placed by hand (`tarang order place`),
 * the engines' format under a prefix no engine may take, so a daemon never adopts a manual order.
 */
import { describe, expect, it } from 'vitest';
import { checkTagPrefix, isManualTag, legTag, manualTag, parseTag, rootTag, sliceTag, strategyKey, TagMinter } from '../../../src/adapters/execution/tags.js';

describe('client tags', () => {
  it('recognises our tags, smart legs and auto-slices (a restart finds each by its tag), and no other prefix', () => {
    const m = new TagMinter('tr', 5);
    const tag = m.next();
    expect(tag).toBe('tr5-1');
    expect(m.isOurs(tag)).toBe(true);
    expect(m.isOurs(legTag(tag, 'stopLoss'))).toBe(true);
    expect(m.isOurs(sliceTag(tag, 1))).toBe(true);
    expect(m.isOurs(sliceTag(tag, 10))).toBe(true);
    expect(m.isOurs('bt5-1.s1')).toBe(false);
    expect(m.isOurs('tr5-1.x1')).toBe(false);
    // A slice is an order of its own on the wire: its root tag is itself.
    expect(rootTag(sliceTag(tag, 2))).toBe('tr5-1.s2');
    expect(parseTag(sliceTag(tag, 2))).toEqual({ run: 5, seq: 1, leg: 'entry' });
  });
});

describe('manual order tags', () => {
  it('a manual tag parses under the manual prefix, with the placing moment as its run', () => {
    const at = Date.UTC(2026, 10, 20, 5, 30);
    const tag = manualTag(at);
    expect(tag).toBe(`man${at.toString(36)}-1`);
    expect(parseTag(tag, 'man')).toEqual({ run: at, seq: 1, leg: 'entry' });
    expect(isManualTag(tag)).toBe(true);
    expect(isManualTag(`${tag}.sl`)).toBe(true);
  });

  it('an engine tag is not a manual one, and no engine prefix can match a manual tag', () => {
    const engine = new TagMinter('tr', 3);
    expect(isManualTag(engine.next())).toBe(false);
    expect(engine.isOurs(manualTag(Date.UTC(2026, 10, 20)))).toBe(false);
    for (const p of ['m', 'ma', 'man', 'mana', 'manual']) expect(() => checkTagPrefix(p)).toThrow(/would match the tags of orders placed by hand/);
    expect(checkTagPrefix('mb')).toBe('mb');
  });
});

describe('client tags with strategy keys', () => {
  it('mint <prefix><run>-<seq> in base 36, with the strategy key after it only when keys are on', () => {
    const plain = new TagMinter('tr', 40);
    expect([plain.next('sma-1'), plain.next()]).toEqual(['tr14-1', 'tr14-2']);
    const keyed = new TagMinter('tr', 40, true);
    const key = strategyKey('sma-1');
    expect(key).toMatch(/^[0-9a-z]{5}$/);
    expect(keyed.next('sma-1')).toBe(`tr14-1_${key}`);
    // Engine-made tags without a strategy (cancels) carry no key.
    expect(keyed.next()).toBe('tr14-2');
  });

  it('give each strategy id its own stable key', () => {
    expect(strategyKey('buyer')).toBe(strategyKey('buyer'));
    const ids = Array.from({ length: 200 }, (_, i) => `strategy-${i}`);
    expect(new Set(ids.map(strategyKey)).size).toBe(200);
  });

  it('parse back run, sequence, leg and the strategy key, and recognise keyed tags as ours', () => {
    const m = new TagMinter('tr', 3, true);
    const tag = m.next('orb');
    const key = strategyKey('orb');
    expect(parseTag(tag)).toEqual({ run: 3, seq: 1, leg: 'entry', strategyKey: key });
    expect(parseTag(legTag(tag, 'stopLoss'))).toEqual({ run: 3, seq: 1, leg: 'stopLoss', strategyKey: key });
    expect(rootTag(legTag(tag, 'target'))).toBe(tag);
    expect(parseTag('tr3-1')).toEqual({ run: 3, seq: 1, leg: 'entry' });
    expect(m.isOurs(tag)).toBe(true);
    expect(m.isOurs(`${tag}.tg`)).toBe(true);
    expect(m.isOurs('tr3-1_abc')).toBe(false);
    expect(parseTag('square-off:123')).toBeUndefined();
  });
});
