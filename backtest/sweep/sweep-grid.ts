/**
 * Parameter grids: `--sweep fast=5..30:5` (inclusive range with a step), `--sweep qty=50,100`
 * (a list). The grid is the cartesian product in the order the sweeps were given, each axis in
 * the order written, so combination numbers are stable for the same command line.
 */
import { ConfigError } from '../../src/core/errors.js';

export interface SweepAxis {
  readonly name: string;
  readonly values: readonly (number | string | boolean)[];
}

const RANGE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/;
const MAX_COMBINATIONS = 100_000;

/** A scalar CLI value: numbers and booleans typed, anything else kept as text. */
export function scalar(text: string): number | string | boolean {
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

export function parseSweep(spec: string): SweepAxis {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`--sweep ${spec}: expected name=from..to:step or name=a,b,c`, { spec });
  const name = spec.slice(0, eq).trim();
  const body = spec.slice(eq + 1).trim();
  const m = RANGE.exec(body);
  if (m) {
    const from = Number(m[1]);
    const to = Number(m[2]);
    const step = m[3] === undefined ? 1 : Number(m[3]);
    if (!(step > 0)) throw new ConfigError(`--sweep ${spec}: the step must be positive`, { spec });
    if (to < from) throw new ConfigError(`--sweep ${spec}: ${to} is below ${from}`, { spec });
    const decimals = Math.max(...[m[1]!, m[2]!, m[3] ?? '1'].map((s) => (s.split('.')[1] ?? '').length));
    const scale = 10 ** decimals;
    const values: number[] = [];
    // Integer steps on a scaled grid: 0.1..0.5:0.1 gives exactly 0.1, 0.2, ... without float drift.
    for (let k = Math.round(from * scale); k <= Math.round(to * scale) + 1e-9; k += Math.round(step * scale)) values.push(k / scale);
    return { name, values };
  }
  const values = body.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) throw new ConfigError(`--sweep ${spec}: no values`, { spec });
  return { name, values: values.map(scalar) };
}

export function gridOf(axes: readonly SweepAxis[]): Array<Record<string, number | string | boolean>> {
  const names = new Set<string>();
  for (const a of axes) {
    if (names.has(a.name)) throw new ConfigError(`--sweep ${a.name} is given twice`, { name: a.name });
    names.add(a.name);
  }
  const total = axes.reduce((n, a) => n * a.values.length, 1);
  if (total > MAX_COMBINATIONS) throw new ConfigError(`the sweep has ${total} combinations; at most ${MAX_COMBINATIONS}`, { total });
  let grid: Array<Record<string, number | string | boolean>> = [{}];
  for (const a of axes) grid = grid.flatMap((g) => a.values.map((v) => ({ ...g, [a.name]: v })));
  return grid;
}
