/**
 * `npm run bench -- startup`: what a user waits for before tarang does anything. Whole processes,
 * as a shell runs them, interleaved round by round (hyperfine-like) so the machine's load falls on
 * all alike, median of the rounds:
 *  - `node -e 0`, the floor every Node program pays;
 *  - `tarang --help` (target: within 3x of `node -e 0` in the same run);
 *  - `tarang backtest --data <missing file>`: start-up up to opening the CSV (module loading, flags,
 *    strategy), the part of a backtest that is not the backtest;
 *  - `tarang backtest` of sma-cross on 200,000 minute candles (target 0.5 s whole process).
 * Besides wall time, the CPU time of each child (Linux: /proc/self/stat children's ticks, 10 ms
 * resolution) is given: on a shared machine it is steadier than wall time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from './run.js';
import { packageRoot } from '../src/core/paths.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';

export const name = 'start-up';

const ROUNDS = 7;
const CANDLES = 200_000;

/** CPU ms used by waited-for children so far (Linux), else undefined. */
function childrenCpuMs(): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): cutime and cstime are the 14th and 15th of them.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return undefined;
  }
}

interface Case {
  readonly label: string;
  readonly args: readonly string[];
  readonly expectCode: number;
  readonly wall: number[];
  readonly cpu: number[];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function runOnce(c: Case): void {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, c.args, { cwd: packageRoot(), stdio: ['ignore', 'ignore', 'pipe'], env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TARANG_'))) });
  const ms = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  if (r.status !== c.expectCode) throw new Error(`${c.label}: exit ${r.status} (expected ${c.expectCode}): ${r.stderr.toString().slice(0, 500)}`);
  c.wall.push(ms);
  if (cpu0 !== undefined && cpu1 !== undefined) c.cpu.push(cpu1 - cpu0);
}

export async function run(): Promise<BenchResult[]> {
  const root = packageRoot();
  // dist/ brought up to date first, so no timed start pays for compiling.
  const { ensureDist } = (await import(join(root, 'bin', 'dist-build.js'))) as { ensureDist(root: string): Promise<{ compiled: number }> };
  const prep = await ensureDist(root);
  const dir = mkdtempSync(join(tmpdir(), 'tarang-startup-bench-'));
  try {
    const csv = join(dir, 'synthetic-200k.csv');
    writeSyntheticMinuteCsv(csv, { candles: CANDLES, seed: 7 });
    const bin = join(root, 'bin', 'tarang.js');
    const mk = (label: string, args: string[], expectCode = 0): Case => ({ label, args, expectCode, wall: [], cpu: [] });
    const floor = mk('node -e 0', ['-e', '0']);
    const help = mk('tarang --help', [bin, '--help']);
    const before = mk('tarang backtest, start-up to the CSV', [bin, 'backtest', '--data', join(dir, 'missing.csv')], 1);
    const bt = mk(`tarang backtest, ${CANDLES / 1000}k candles`, [bin, 'backtest', '--data', csv, '--param', 'qty=10', '--no-progress']);
    const cases = [floor, help, before, bt];
    for (const c of cases) runOnce(c); // warm the file cache; not counted
    for (const c of cases) c.wall.length = c.cpu.length = 0;
    for (let r = 0; r < ROUNDS; r++) for (const c of cases) runOnce(c);

    const base = median(floor.wall);
    const baseCpu = floor.cpu.length ? median(floor.cpu) : undefined;
    const cpuNote = (c: Case): string => (c.cpu.length && baseCpu ? `; CPU ${median(c.cpu).toFixed(0)} ms = x${(median(c.cpu) / baseCpu).toFixed(2)} of node -e 0's ${baseCpu.toFixed(0)} ms` : '');
    const rounds = `median of ${ROUNDS} interleaved runs`;
    return [
      { metric: 'node -e 0, whole process', value: base, unit: 'ms', note: `${rounds}; dist/ ${prep.compiled ? `compiled ${prep.compiled} file(s) first` : 'was current'}` },
      { metric: 'tarang --help, whole process', value: median(help.wall), unit: 'ms', target: 3 * base, lowerIsBetter: true, note: `x${(median(help.wall) / base).toFixed(2)} of node -e 0 (target x3)${cpuNote(help)}` },
      { metric: 'tarang backtest, start-up up to the CSV', value: median(before.wall), unit: 'ms', note: `x${(median(before.wall) / base).toFixed(2)} of node -e 0; modules, flags, strategy${cpuNote(before)}` },
      { metric: `tarang backtest, ${CANDLES.toLocaleString('en-US')} minute candles, whole process`, value: median(bt.wall) / 1000, unit: 's', target: 0.5, lowerIsBetter: true, note: `sma-cross, charges auto${cpuNote(bt)}` },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
