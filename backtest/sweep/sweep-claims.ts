/**
 * The shared claim table of a sweep (see SweepWorkerData.claims): one Int32Array over a
 * SharedArrayBuffer that the main lane and every worker read and write with Atomics.
 */
export function claimTable(total: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * (total + 1)));
}

/** The next unclaimed combination for `lane`, or -1 when none is left. */
export function claimNext(claims: Int32Array, lane: number): number {
  const total = claims.length - 1;
  const i = Atomics.add(claims, 0, 1);
  if (i >= total) return -1;
  Atomics.store(claims, 1 + i, lane + 1);
  return i;
}

/** Stops every lane after the combination it is running. */
export function closeClaims(claims: Int32Array): void {
  Atomics.store(claims, 0, claims.length - 1);
}

/** Combinations `lane` claimed, of those for which `isDone` is false. */
export function claimedBy(claims: Int32Array, lane: number, isDone: (index: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < claims.length - 1; i++) if (Atomics.load(claims, 1 + i) === lane + 1 && !isDone(i)) out.push(i);
  return out;
}
