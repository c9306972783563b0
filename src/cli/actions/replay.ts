/**
 * `tarang replay RECORDING.jsonl [--config FILE] [--html out.html] [--json out.json]`: runs a
 * recorded session (a daemon's `events-YYYY-MM-DD.jsonl`) through the backtest engine again and
 * shows where live and replay part ways (docs/replay.md explains how to read it). Declared in
 * ../commands/replay.ts.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { formatInr } from '../../core/money.js';
import { formatIst } from '../../core/time.js';
import type { Instrument } from '../../core/instruments.js';
import { loadDaemonConfig } from '../../daemon/config.js';
import { loadStrategySpecs } from '../../daemon/strategy-loader.js';
import { symbolIndex } from '../../daemon/symbols.js';
import { openRecording } from '../../engine/recording/reader.js';
import { getStrategy, strategyNames } from '../../strategies/registry.js';
import { jsonText } from '../../../backtest/report/backtest-result.js';
import { DIVERGENCE_LABEL, type Divergence } from '../../../backtest/replay/diff.js';
import { replaySession, type ReplayOutcome, type ReplayOverride } from '../../../backtest/replay/replay.js';
import { buildReplayHtml, buildReplayJson } from '../../../backtest/replay/replay-report.js';

export interface ReplayFlags {
  config?: string;
  json?: string;
  html?: string;
  allowTruncated?: boolean;
  timeTolerance?: string;
  check?: boolean;
  all?: boolean;
}

const inr = (p: number): string => formatInr(Math.round(p));
const at = (ts: number): string => formatIst(ts).slice(11, 23);

/** The strategies, risk and execution of a daemon config file, for "what would this config have done". */
async function overrideFrom(file: string, recording: string): Promise<ReplayOverride> {
  const c = loadDaemonConfig(file);
  const opened = await openRecording(recording);
  // Only the header is needed here: let go of the file.
  await opened.batches.return(undefined);
  const specs = await loadStrategySpecs(c.strategies, {
    lookup: (n) => {
      try {
        return getStrategy(n);
      } catch {
        return undefined;
      }
    },
    known: strategyNames,
    symbols: symbolIndex(opened.header.instruments as Instrument[]),
    baseDir: dirname(resolve(file)),
    source: file,
  });
  return {
    source: file,
    strategies: specs,
    risk: c.risk,
    execution: c.execution,
    onStop: c.shutdown.onStop,
    ...(c.shutdown.intradayExitAt !== undefined ? { intradayExitAt: c.shutdown.intradayExitAt } : {}),
  };
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>, left = 1): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i < left ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}

function divergenceLines(d: Divergence): string[] {
  return [
    `${at(d.ts)}  ${DIVERGENCE_LABEL[d.kind]}  ${d.strategyId}${d.tag ? `  ${d.tag}` : ''}${d.orderId ? ` (order ${d.orderId})` : ''}${d.line !== undefined ? `  line ${d.line}` : ''}`,
    `    live:   ${d.live}`,
    `    replay: ${d.replay}`,
    `    why:    ${d.why}`,
  ];
}

/** The terminal summary. */
export function summaryLines(r: ReplayOutcome, all = false): string[] {
  const d = r.diff;
  const out: string[] = [];
  const span = r.run.firstTs !== undefined && r.run.lastTs !== undefined ? `${formatIst(r.run.firstTs).slice(0, 19).replace('T', ' ')} to ${at(r.run.lastTs).slice(0, 8)} IST` : 'no market data';
  const marketMs = r.run.firstTs !== undefined && r.run.lastTs !== undefined ? r.run.lastTs - r.run.firstTs : 0;
  const speed = r.run.replayMs > 0 && marketMs > 0 ? `, x${Math.round(marketMs / r.run.replayMs).toLocaleString('en-IN')} market speed` : '';
  out.push(`replay of ${r.source}: ${r.header.mode} session, ${span}`);
  out.push(`${r.run.ticks.toLocaleString('en-IN')} ticks and ${r.run.candles.toLocaleString('en-IN')} candles replayed in ${(r.run.replayMs / 1000).toFixed(2)} s${speed}; settings from ${r.settingsFrom}`);
  out.push('');
  out.push(`decisions identical ${d.decisions.identical}/${d.decisions.total}, fills identical ${d.fills.identical}/${d.fills.total}`);
  out.push('');
  out.push(
    ...table(
      ['strategy', 'decisions live', 'replay', 'same', 'fills live', 'replay', 'same', 'P&L live', 'P&L replay'],
      d.strategies.map((s) => [s.strategyId, String(s.liveDecisions), String(s.replayDecisions), String(s.identicalDecisions), String(s.liveFills), String(s.replayFills), String(s.identicalFills), inr(s.livePnl), inr(s.replayPnl)]),
    ),
  );
  out.push('');
  out.push(`P&L before charges, marked to the last recorded price: live ${inr(d.pnl.live)}, replay ${inr(d.pnl.replay)}, difference ${inr(d.pnl.replay - d.pnl.live)}`);
  if (d.pnl.replay !== d.pnl.live) {
    out.push('explained by (replay minus live):');
    out.push(...table(['', ''], d.pnl.parts.filter((p) => p.amount !== 0).map((p) => [`  ${p.what}`, inr(p.amount)])).slice(1));
  }
  const c = d.pnl.charges;
  out.push(`charges: live ${inr(c.live)} (${c.liveFillsWithCharges} of ${c.liveFills} fills carry charges${c.liveFillsWithCharges < c.liveFills ? '; the broker books the rest on the contract note' : ''}), replay ${inr(c.replay)}`);
  out.push('');
  if (d.divergences.length === 0) out.push('no divergence: the replay made every decision and fill the session made');
  else {
    out.push(`first divergence of ${d.divergences.length}:`);
    out.push(...divergenceLines(d.divergences[0]!));
    const byKind = new Map<string, number>();
    for (const x of d.divergences) byKind.set(DIVERGENCE_LABEL[x.kind], (byKind.get(DIVERGENCE_LABEL[x.kind]) ?? 0) + 1);
    out.push(`all divergences: ${[...byKind].map(([k, n]) => `${k} x${n}`).join(', ')}`);
    const shown = all ? d.divergences.slice(1) : d.divergences.slice(1, 10);
    for (const x of shown) out.push(...divergenceLines(x));
    if (!all && d.divergences.length > 10) out.push(`... ${d.divergences.length - 10} more (--all lists them, --json or --html keeps them)`);
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  return out;
}

export async function runReplay(recording: string, f: ReplayFlags): Promise<void> {
  const tolerance = f.timeTolerance === undefined ? undefined : Number(f.timeTolerance);
  if (tolerance !== undefined && (!Number.isFinite(tolerance) || tolerance < 0)) throw new ConfigError(`--time-tolerance: expected milliseconds >= 0, got ${JSON.stringify(f.timeTolerance)}`, { flag: 'time-tolerance' });
  if (statSync(recording, { throwIfNoEntry: false })?.isDirectory()) {
    const days = readdirSync(recording).filter((n) => /^events-\d{4}-\d{2}-\d{2}\.jsonl$/.test(n)).sort();
    throw new ConfigError(`${recording} is a folder; give one day's recording${days.length ? `, e.g. ${days.slice(-3).map((d) => `${recording.replace(/\/+$/, '')}/${d}`).join(', ')}` : ' (it holds no events-YYYY-MM-DD.jsonl)'}`, { recording });
  }
  const override = f.config ? await overrideFrom(f.config, recording) : undefined;
  const r = await replaySession({ source: recording, ...(override ? { override } : {}), allowTruncated: f.allowTruncated === true, ...(tolerance !== undefined ? { diff: { timeToleranceMs: tolerance } } : {}) });
  process.stdout.write(`${summaryLines(r, f.all === true).join('\n')}\n`);
  if (f.json) {
    writeFileSync(f.json, jsonText(buildReplayJson(r)));
    process.stderr.write(`replay JSON: ${f.json}\n`);
  }
  if (f.html) {
    writeFileSync(f.html, buildReplayHtml(r));
    process.stderr.write(`replay report: ${f.html}\n`);
  }
  if (f.check && r.diff.divergences.length > 0) process.exitCode = 1;
}
