import { describe, expect, it } from 'vitest';
import { legTag, parseTag, rootTag, strategyKey, TagMinter } from '../../../src/adapters/execution/tags.js';

describe('client tags', () => {
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
