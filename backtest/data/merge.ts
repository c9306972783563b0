/**
 * Several instruments in one time line: a k-way merge of sorted series by candle close time
 * (`ts`, when a strategy sees the candle), ties broken by series order (instrument id order, as
 * the loaders return them), so the replay order is total and deterministic. The result is two
 * index arrays, not a million objects.
 */
import type { CandleSeries } from './candle-series.js';

export interface MergedOrder {
  readonly length: number;
  /** Which series each step reads from. */
  readonly series: Uint32Array;
  /** Which candle of that series. */
  readonly index: Uint32Array;
}

export function mergeSeries(all: readonly CandleSeries[]): MergedOrder {
  const total = all.reduce((a, s) => a + s.length, 0);
  const series = new Uint32Array(total);
  const index = new Uint32Array(total);
  if (all.length === 1) {
    for (let i = 0; i < total; i++) index[i] = i;
    return { length: total, series, index };
  }
  // Binary min-heap of series numbers keyed by (ts of the head candle, series number).
  const pos = new Uint32Array(all.length);
  const heap: number[] = [];
  const key = (k: number): number => all[k]!.ts[pos[k]!]!;
  const less = (a: number, b: number): boolean => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb || (ka === kb && a < b);
  };
  const up = (i: number): void => {
    const x = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(x, heap[p]!)) break;
      heap[i] = heap[p]!;
      i = p;
    }
    heap[i] = x;
  };
  const down = (i: number): void => {
    const x = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const c = r < heap.length && less(heap[r]!, heap[l]!) ? r : l;
      if (!less(heap[c]!, x)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = x;
  };
  for (let k = 0; k < all.length; k++) {
    if (all[k]!.length > 0) {
      heap.push(k);
      up(heap.length - 1);
    }
  }
  for (let out = 0; out < total; out++) {
    const k = heap[0]!;
    series[out] = k;
    index[out] = pos[k]!;
    pos[k]!++;
    if (pos[k]! >= all[k]!.length) {
      const last = heap.pop()!;
      if (heap.length > 0 && last !== k) {
        heap[0] = last;
        down(0);
      }
    } else down(0);
  }
  return { length: total, series, index };
}
