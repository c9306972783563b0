// Loaded with `node --import` into a child the backtest bench starts (a whole `tarang backtest`
// process): at exit it writes the process's wall time since start and its peak RSS, as JSON, to
// the file TARANG_EXIT_STATS names (with its CPU time: on a shared machine the wall time is not
// the process's alone). Plain JavaScript so that it costs the child nothing to load.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const out = process.env.TARANG_EXIT_STATS;
if (out) {
  process.on('exit', (code) => {
    const r = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ ms: performance.now(), cpuMs: (r.userCPUTime + r.systemCPUTime) / 1000, maxRssMb: r.maxRSS / 1024, code }));
  });
}
