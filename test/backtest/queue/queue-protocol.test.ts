import { describe, expect, it } from 'vitest';
import { decodeReplies, defaultChunk, encodeReplies, jobId, shownUrl, sweepId } from '../../../backtest/queue/queue-protocol.js';
import type { SweepReply } from '../../../backtest/sweep/sweep-types.js';

describe('the queue protocol', () => {
  it('carries rows through JSON without losing NaN, infinities or undefined members', () => {
    const replies: SweepReply[] = [
      { index: 3, metrics: { sharpe: Number.NaN, profit_factor: Infinity, worst: -Infinity, average_trade: null, note: undefined, nested: { x: [1, Number.NaN] } }, finalEquity: 10_000.5 },
      { index: 4, error: 'fast must be shorter than slow' },
    ];
    const back = decodeReplies(encodeReplies(replies));
    expect(back).toEqual(replies);
    expect(Object.keys(back[0]!.metrics!)).toContain('note');
    expect(structuredClone(replies)).toEqual(back);
  });

  it('names a sweep by its content: same sweep, same job ids; any change, new ids', () => {
    const spec = { series: [], instruments: [], strategy: 'sma-cross', params: { qty: 10 }, settings: { cash: 1_000_000 }, charges: 'none' };
    const grid = [{ fast: 5 }, { fast: 10 }];
    expect(sweepId(spec, grid, 1)).toBe(sweepId({ ...spec }, [...grid], 1));
    expect(sweepId(spec, grid, 2)).not.toBe(sweepId(spec, grid, 1));
    expect(sweepId({ ...spec, charges: 'auto' }, grid, 1)).not.toBe(sweepId(spec, grid, 1));
    expect(jobId('abc', 7)).toBe('sweep-abc-7');
    expect([defaultChunk(32), defaultChunk(1_000), defaultChunk(100_000)]).toEqual([1, 5, 50]);
  });

  it('never shows a Redis password', () => {
    expect(shownUrl('redis://:s3cret@10.0.0.5:6379/0')).toBe('redis://:***@10.0.0.5:6379/0');
    expect(shownUrl('redis://user:s3cret@h:6379/2')).not.toContain('s3cret');
  });
});
