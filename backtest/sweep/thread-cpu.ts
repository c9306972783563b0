/**
 * CPU time of the calling thread, for the sweep's lane figures. process.cpuUsage() counts the whole
 * process (every worker), and Node 20 has no per-thread counter, so this reads Linux's
 * /proc/thread-self/stat (utime + stime, in clock ticks of 10 ms). Elsewhere it is undefined and
 * the lane figures simply leave CPU out.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10;
let available = process.platform === 'linux';

export function threadCpuMs(): number | undefined {
  if (!available) return undefined;
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    available = false;
    return undefined;
  }
}
