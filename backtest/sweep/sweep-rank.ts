/**
 * Ranking sweep rows by a metric. The combination number breaks ties and failed combinations go
 * last in combination order, so the ranking depends on the results alone, never on which lane
 * finished first.
 */
import type { SweepParams } from './sweep-types.js';

/** Metrics a sweep can rank by; `max_drawdown` ranks lowest first, the rest highest first. */
export const RANK_METRICS = ['sharpe', 'sortino', 'total_return', 'cagr', 'profit_factor', 'win_rate', 'max_drawdown', 'final_equity'] as const;
export type RankMetric = (typeof RANK_METRICS)[number];

export function isRankMetric(s: string): s is RankMetric {
  return (RANK_METRICS as readonly string[]).includes(s);
}

export interface SweepRow {
  readonly index: number;
  readonly params: SweepParams;
  readonly metrics?: Record<string, unknown>;
  readonly finalEquity?: number;
  readonly error?: string;
  /** 1-based rank; absent for failed combinations. */
  rank?: number;
}

function metricOf(row: SweepRow, m: RankMetric): number | null {
  if (m === 'final_equity') return row.finalEquity ?? null;
  const v = row.metrics?.[m];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function rankRows(rows: SweepRow[], m: RankMetric): SweepRow[] {
  const lowerBetter = m === 'max_drawdown';
  const ok = rows.filter((r) => r.error === undefined);
  ok.sort((a, b) => {
    const x = metricOf(a, m);
    const y = metricOf(b, m);
    if (x === null && y === null) return a.index - b.index;
    if (x === null) return 1;
    if (y === null) return -1;
    const d = lowerBetter ? x - y : y - x;
    return d !== 0 ? d : a.index - b.index;
  });
  ok.forEach((r, i) => (r.rank = i + 1));
  return [...ok, ...rows.filter((r) => r.error !== undefined).sort((a, b) => a.index - b.index)];
}
