/**
 * Tags of orders placed by hand (`tarang order place`): the engines' format under a prefix no
 * engine may take, so a daemon never adopts a manual order as its own.
 */
import { describe, expect, it } from 'vitest';
import { checkTagPrefix, isManualTag, manualTag, parseTag, TagMinter } from '../../../src/adapters/execution/tags.js';

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
