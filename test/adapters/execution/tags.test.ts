import { describe, expect, it } from 'vitest';
import { legTag, parseTag, rootTag, sliceTag, TagMinter } from '../../../src/adapters/execution/tags.js';

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
