/**
 * The replay diff: the recorded session against its replay, decision by decision.
 *
 * Decisions are paired per strategy in order by what they ask for (kind, instrument, side,
 * quantity, order type, prices; a modify or cancel by the order it targets), resynchronising past
 * an extra or a missing one. A pair is identical when it asks for the same thing after the same
 * market event. For each pair the risk answer, the placement and the fills are compared too.
 *
 * Every divergence is classified:
 * - `decision`: the strategy decided differently, or at another moment. The inputs it saw are
 *   named: the market data is the recorded data in both, so what differs is its position and its
 *   working orders, and the earlier divergence that made them differ.
 * - `risk`: the same decision got a different risk answer (OrderDenied code).
 * - `fill`: an order filled at another price, quantity or time (the live book vs the tick model).
 * - `broker`: the broker rejected or changed an order the replay's venue accepted, or the reverse.
 * - `update`: an update reached the live engine late or never (a stream gap, a reconnect), and
 *   the strategy decided on stale order state, or the fill is missing.
 *
 * P&L (before charges) is marked to the last recorded price in both, so the difference is exactly
 * the fills: the summary splits it into fill prices and quantities, fills only live and fills only
 * in the replay. Charges are shown apart (a broker's fills usually carry none).
 */
import type { FillEvent } from '../../src/core/events.js';
import type { Intent } from '../../src/core/intents.js';
import type { Paise } from '../../src/core/money.js';
import { formatInr } from '../../src/core/money.js';
import { formatIst } from '../../src/core/time.js';
import type { LiveDecision, LiveFill, LiveSession } from './live-session.js';
import type { ReplayDecision, TickReplayRun } from './tick-runner.js';

export const DivergenceKind = { DECISION: 'decision', RISK: 'risk', FILL: 'fill', BROKER: 'broker', UPDATE: 'update' } as const;
export type DivergenceKind = (typeof DivergenceKind)[keyof typeof DivergenceKind];

export const DIVERGENCE_LABEL: Readonly<Record<DivergenceKind, string>> = {
  decision: 'different decision',
  risk: 'different risk answer',
  fill: 'different fill',
  broker: 'broker rejected or changed',
  update: 'missing or late update',
};

export interface Divergence {
  readonly kind: DivergenceKind;
  /** When it happened (live time when live has it, else the replay's). */
  readonly ts: number;
  readonly strategyId: string;
  /** The client tag (live's when live has the order). */
  readonly tag?: string;
  readonly orderId?: string;
  /** The recording's line of the live side, when there is one. */
  readonly line?: number;
  readonly live: string;
  readonly replay: string;
  readonly why: string;
}

export interface StrategyRow {
  readonly strategyId: string;
  readonly liveDecisions: number;
  readonly replayDecisions: number;
  readonly identicalDecisions: number;
  readonly liveFills: number;
  readonly replayFills: number;
  readonly identicalFills: number;
  readonly livePnl: Paise;
  readonly replayPnl: Paise;
}

export interface PnlPart {
  readonly what: string;
  /** Replay minus live, paise. */
  readonly amount: Paise;
}

export interface ReplayDiff {
  readonly decisions: { readonly identical: number; readonly total: number };
  readonly fills: { readonly identical: number; readonly total: number };
  readonly divergences: readonly Divergence[];
  readonly strategies: readonly StrategyRow[];
  /**
   * P&L before charges, marked to the last recorded price (the same in both), and what makes up
   * the difference; charges apart: a broker's fills usually carry none (they come on the contract
   * note), the replay's venue charges every fill.
   */
  readonly pnl: {
    readonly live: Paise;
    readonly replay: Paise;
    readonly parts: readonly PnlPart[];
    readonly charges: { readonly live: Paise; readonly liveFillsWithCharges: number; readonly liveFills: number; readonly replay: Paise };
  };
}

export interface DiffOptions {
  /** Fill times this far apart still count as the same (the live round trip), ms. Default 2,000. */
  readonly timeToleranceMs?: number;
  /** A fill booked this long after its own time arrived late, ms. Default 5,000. */
  readonly lateMs?: number;
  /** Resynchronisation window when decisions differ. */
  readonly lookahead?: number;
}


const inr = (p: number): string => formatInr(Math.round(p));
const at = (ts: number): string => formatIst(ts).slice(11, 23);

/** What a decision asks for, without its id; a modify or cancel names its target through `target`. */
export function decisionKey(i: Intent, target: (tag: string) => string = (t) => t): string {
  switch (i.kind) {
    case 'place':
      return `place ${i.side} ${i.qty} ${i.instrument} ${i.orderType}${i.limitPrice !== undefined ? ` @${i.limitPrice}` : ''}${i.triggerPrice !== undefined ? ` trg ${i.triggerPrice}` : ''} ${i.product} ${i.validity}`;
    case 'smart':
      return `smart ${i.side} ${i.qty} ${i.instrument} ${i.entryType} ${i.limitPrice ?? ''}/${i.triggerPrice ?? ''}/${i.triggerLimitPrice ?? ''} sl ${i.stopLoss?.triggerPrice ?? ''}/${i.stopLoss?.limitPrice ?? ''} tg ${i.target?.triggerPrice ?? ''}/${i.target?.limitPrice ?? ''} trail ${i.trailingStep ?? ''} ${i.product} ${i.validity}`;
    case 'exit':
      return `exit ${i.instrument} ${i.product ?? ''}`;
    case 'modify':
      return `modify ${target(i.target)}${i.leg ? `.${i.leg}` : ''} qty ${i.qty ?? ''} @${i.limitPrice ?? ''} trg ${i.triggerPrice ?? ''}`;
    case 'cancel':
      return `cancel ${target(i.target)}${i.leg ? `.${i.leg}` : ''}`;
  }
}

/** A decision for people: `BUY 5 NSE_2885 MARKET`. */
export function describeIntent(i: Intent): string {
  switch (i.kind) {
    case 'place':
      return `${i.side} ${i.qty} ${i.instrument} ${i.orderType}${i.limitPrice !== undefined ? ` at ${inr(i.limitPrice)}` : ''}${i.triggerPrice !== undefined ? ` trigger ${inr(i.triggerPrice)}` : ''}`;
    case 'smart':
      return `smart ${i.side} ${i.qty} ${i.instrument} ${i.entryType}`;
    case 'exit':
      return `exit ${i.instrument}`;
    case 'modify':
      return `modify ${i.target}${i.limitPrice !== undefined ? ` to ${inr(i.limitPrice)}` : ''}${i.qty !== undefined ? ` qty ${i.qty}` : ''}`;
    case 'cancel':
      return `cancel ${i.target}`;
  }
}

/** A fill's P&L before charges, marked to `mark`: (mark - price) x qty for a buy, the reverse for a sell. */
function contribution(f: FillEvent, mark: Paise | undefined): number {
  const m = mark ?? f.price;
  return (f.side === 'BUY' ? 1 : -1) * (m - f.price) * f.qty;
}

function chargesOf(fills: readonly FillEvent[]): { total: Paise; carried: number } {
  let total = 0;
  let carried = 0;
  for (const f of fills) {
    if (f.charges === undefined) continue;
    total += f.charges;
    carried++;
  }
  return { total, carried };
}

function pnlOf(fills: readonly FillEvent[], marks: ReadonlyMap<string, Paise>): number {
  let p = 0;
  for (const f of fills) p += contribution(f, marks.get(f.instrument));
  return p;
}

/** The root tag of a fill or order (a smart order's legs end in `.sl`/`.tg`). */
function rootOf(tag: string): { root: string; suffix: string } {
  const i = tag.indexOf('.');
  return i < 0 ? { root: tag, suffix: '' } : { root: tag.slice(0, i), suffix: tag.slice(i) };
}

export function diffSessions(live: LiveSession, rep: TickReplayRun, o: DiffOptions = {}): ReplayDiff {
  const tolerance = o.timeToleranceMs ?? 2_000;
  const lateMs = o.lateMs ?? 5_000;
  const K = o.lookahead ?? 50;
  const divergences: Divergence[] = [];
  const marks = new Map([...live.lastPrices, ...rep.lastPrices]);

  // Everything indexed once (a full day holds tens of thousands of decisions and fills): fills
  // by root tag, decisions and fills by strategy.
  const liveFillsOf = new Map<string, LiveFill[]>();
  for (const f of live.fills) push(liveFillsOf, rootOf(f.fill.tag).root, f);
  const repFillsOf = new Map<string, Array<{ fill: FillEvent; market: number }>>();
  rep.fillEvents.forEach((f, k) => push(repFillsOf, rootOf(f.tag).root, { fill: f, market: rep.fillMarket[k]! }));
  const liveBySid = new Map<string, LiveDecision[]>();
  for (const d of live.decisions) push(liveBySid, d.intent.strategyId, d);
  const repBySid = new Map<string, ReplayDecision[]>();
  for (const d of rep.decisions) push(repBySid, d.intent.strategyId, d);
  const liveFillsBySid = new Map<string, LiveFill[]>();
  for (const f of live.fills) push(liveFillsBySid, f.fill.strategyId, f);
  const repFillsBySid = new Map<string, Array<{ fill: FillEvent; market: number }>>();
  rep.fillEvents.forEach((f, k) => push(repFillsBySid, f.strategyId, { fill: f, market: rep.fillMarket[k]! }));
  const liveIds = new Set(live.decisions.map((d) => d.intent.id));
  const repIds = new Set(rep.decisions.map((d) => d.intent.id));

  const liveToReplay = new Map<string, string>();
  const target = (t: string): string => {
    const { root, suffix } = rootOf(t);
    return (liveToReplay.get(root) ?? root) + suffix;
  };
  const strategies = [...new Set([...liveBySid.keys(), ...repBySid.keys()])].sort();
  const rows: StrategyRow[] = [];
  let identicalDecisions = 0;
  let totalDecisions = 0;
  let identicalFills = 0;
  let totalFills = 0;
  const pairedFills: Array<{ l: FillEvent; r: FillEvent }> = [];
  const liveOnlyFills: FillEvent[] = [];
  const repOnlyFills: FillEvent[] = [];

  for (const sid of strategies) {
    const L: LiveDecision[] = liveBySid.get(sid) ?? [];
    const R: ReplayDecision[] = repBySid.get(sid) ?? [];
    let same = 0;
    let sFillsIdentical = 0;
    let i = 0;
    let j = 0;
    // Keys of modify and cancel depend on the pairs made so far (their target): not cached.
    const cacheL: Array<string | undefined> = [];
    const keyL = (k: number): string => {
      const i = L[k]!.intent;
      if (i.kind === 'modify' || i.kind === 'cancel') return decisionKey(i, target);
      return (cacheL[k] ??= decisionKey(i));
    };
    const keysR = R.map((d) => decisionKey(d.intent));
    const keyR = (k: number): string => keysR[k]!;
    while (i < L.length || j < R.length) {
      if (i < L.length && j < R.length && keyL(i) === keyR(j)) {
        const l = L[i]!;
        const r = R[j]!;
        liveToReplay.set(l.intent.id, r.intent.id);
        if (l.market === r.market) same++;
        else divergences.push(decisionDivergence(sid, l, r, 'at another moment'));
        // Decided at another moment, its fills are at another moment too: that follows, it is not another divergence.
        const f = compareOrder(l, r, l.market !== r.market);
        sFillsIdentical += f;
        i++;
        j++;
        continue;
      }
      let found: [number, number] | undefined;
      for (let d = 1; d <= K && !found; d++) {
        for (let a = 0; a <= d; a++) {
          const b = d - a;
          if (i + a < L.length && j + b < R.length && keyL(i + a) === keyR(j + b)) {
            found = [a, b];
            break;
          }
        }
      }
      if (found) {
        for (let a = 0; a < found[0]; a++) divergences.push(decisionDivergence(sid, L[i + a]!, undefined, 'only live'));
        for (let b = 0; b < found[1]; b++) divergences.push(decisionDivergence(sid, undefined, R[j + b]!, 'only in the replay'));
        for (let a = 0; a < found[0]; a++) unpairedFills(L[i + a]!.intent.id, 'live');
        for (let b = 0; b < found[1]; b++) unpairedFills(R[j + b]!.intent.id, 'replay');
        i += found[0];
        j += found[1];
      } else {
        const l = L[i];
        const r = R[j];
        divergences.push(decisionDivergence(sid, l, r, l && r ? 'asks for something else' : l ? 'only live' : 'only in the replay'));
        if (l) unpairedFills(l.intent.id, 'live');
        if (r) unpairedFills(r.intent.id, 'replay');
        i += l ? 1 : 0;
        j += r ? 1 : 0;
      }
    }
    identicalDecisions += same;
    totalDecisions += Math.max(L.length, R.length);
    identicalFills += sFillsIdentical;
    const lf = (liveFillsBySid.get(sid) ?? []).map((f) => f.fill);
    const rf = (repFillsBySid.get(sid) ?? []).map((f) => f.fill);
    totalFills += Math.max(lf.length, rf.length);
    rows.push({ strategyId: sid, liveDecisions: L.length, replayDecisions: R.length, identicalDecisions: same, liveFills: lf.length, replayFills: rf.length, identicalFills: sFillsIdentical, livePnl: pnlOf(lf, marks), replayPnl: pnlOf(rf, marks) });
  }

  // Fills of no strategy decision (the broker's square-off): paired in order by what they were.
  const decided = (tag: string, side: 'live' | 'replay'): boolean => (side === 'live' ? liveIds : repIds).has(rootOf(tag).root);
  const otherLive = live.fills.filter((f) => !decided(f.fill.tag, 'live'));
  const otherRep = rep.fillEvents.filter((f) => !decided(f.tag, 'replay'));
  const used = new Set<FillEvent>();
  for (const lf of otherLive) {
    const r = otherRep.find((x) => !used.has(x) && x.instrument === lf.fill.instrument && x.side === lf.fill.side && x.qty === lf.fill.qty && x.strategyId === lf.fill.strategyId);
    totalFills++;
    if (!r) {
      liveOnlyFills.push(lf.fill);
      divergences.push({ kind: 'fill', ts: lf.fill.ts, strategyId: lf.fill.strategyId, tag: lf.fill.tag, ...(lf.fill.orderId ? { orderId: lf.fill.orderId } : {}), line: lf.line, live: fillText([lf.fill]), replay: 'no such fill', why: 'an order the replay never had (the broker\'s square-off, or the engine\'s own flatten or exit, of a position that differed)' });
      continue;
    }
    used.add(r);
    pairedFills.push({ l: lf.fill, r });
    if (r.price === lf.fill.price && Math.abs(r.ts - lf.fill.ts) <= tolerance) identicalFills++;
    else divergences.push({ kind: 'fill', ts: lf.fill.ts, strategyId: lf.fill.strategyId, tag: lf.fill.tag, ...(lf.fill.orderId ? { orderId: lf.fill.orderId } : {}), line: lf.line, live: fillText([lf.fill]), replay: fillText([r]), why: fillWhy([lf.fill], [r]) });
  }
  for (const r of otherRep) {
    if (used.has(r)) continue;
    totalFills++;
    repOnlyFills.push(r);
    divergences.push({ kind: 'fill', ts: r.ts, strategyId: r.strategyId, tag: r.tag, live: 'no such fill', replay: fillText([r]), why: 'an order of the engine\'s own (a flatten or exit, not a strategy\'s decision) that the session never filled: live, the position it closes was not there to the engine at that moment (a fill still being booked, or an earlier fill that differed)' });
  }

  const livePnl = pnlOf(live.fills.map((f) => f.fill), marks);
  const replayPnl = pnlOf(rep.fillEvents, marks);
  let price = 0;
  for (const { l, r } of pairedFills) {
    const m = marks.get(l.instrument) ?? l.price;
    price += (l.side === 'BUY' ? 1 : -1) * ((m - r.price) * r.qty - (m - l.price) * l.qty);
  }
  const liveCharges = chargesOf(live.fills.map((f) => f.fill));
  const onlyLive = liveOnlyFills.reduce((a, f) => a + contribution(f, marks.get(f.instrument)), 0);
  const onlyRep = repOnlyFills.reduce((a, f) => a + contribution(f, marks.get(f.instrument)), 0);
  const parts: PnlPart[] = [
    { what: `fill prices and quantities of ${pairedFills.length} fills in both`, amount: price },
    { what: `${liveOnlyFills.length} fills only live`, amount: -onlyLive },
    { what: `${repOnlyFills.length} fills only in the replay`, amount: onlyRep },
  ];
  divergences.sort((a, b) => a.ts - b.ts || (a.line ?? Infinity) - (b.line ?? Infinity));
  return {
    decisions: { identical: identicalDecisions, total: totalDecisions },
    fills: { identical: identicalFills, total: totalFills },
    divergences,
    strategies: rows,
    pnl: { live: livePnl, replay: replayPnl, parts, charges: { live: liveCharges.total, liveFillsWithCharges: liveCharges.carried, liveFills: live.fills.length, replay: chargesOf(rep.fillEvents).total } },
  };

  function unpairedFills(tag: string, side: 'live' | 'replay'): void {
    if (side === 'live') for (const f of fillsOfLive(tag)) liveOnlyFills.push(f.fill);
    else for (const f of fillsOfRep(tag)) repOnlyFills.push(f.fill);
  }

  function fillsOfLive(root: string): LiveFill[] {
    return liveFillsOf.get(root) ?? [];
  }

  function fillsOfRep(root: string): Array<{ fill: FillEvent; market: number }> {
    return repFillsOf.get(root) ?? [];
  }

  /** Risk answer, placement and fills of a paired decision; returns the live fills identical in the replay. */
  function compareOrder(l: LiveDecision, r: ReplayDecision, moved: boolean): number {
    const sid = l.intent.strategyId;
    const ld = live.denials.get(l.intent.id);
    const rd = rep.denials.get(r.intent.id);
    const lo = live.lastOrder.get(l.intent.id);
    const ro = rep.lastOrder.get(r.intent.id);
    const orderId = lo?.order.orderId;
    const base = { strategyId: sid, tag: l.intent.id, ...(orderId ? { orderId } : {}) };
    if (ld?.denied.code !== rd?.code) {
      const venue = ld?.denied.code === 'VENUE_REJECTED' || rd?.code === 'VENUE_REJECTED';
      divergences.push({
        ...base,
        kind: venue ? 'broker' : 'risk',
        ts: ld?.denied.ts ?? rd?.ts ?? l.ts,
        line: ld?.line ?? l.line,
        live: ld ? `denied ${ld.denied.code}: ${ld.denied.reason}` : 'passed risk',
        replay: rd ? `denied ${rd.code}: ${rd.reason}` : 'passed risk',
        why: venue ? (ld?.denied.code === 'VENUE_REJECTED' ? 'the broker refused it; the replay\'s venue accepted it' : 'the replay\'s venue refused it; the broker accepted it') : `${describeIntent(l.intent)}: risk answered differently (its state differed: funds, positions, order rate or trading state)`,
      });
      return 0;
    }
    if (ld) return 0;
    const lRejected = lo?.order.status === 'REJECTED';
    const rRejected = ro?.status === 'REJECTED';
    if (lRejected !== rRejected) {
      divergences.push({
        ...base,
        kind: 'broker',
        ts: lo?.order.status === 'REJECTED' ? l.ts : r.ts,
        line: lo?.line ?? l.line,
        live: lRejected ? `rejected: ${lo?.order.reason ?? 'no reason given'}` : `placed, ${lo?.order.status ?? 'no order update'}`,
        replay: rRejected ? `rejected: ${ro?.reason ?? 'no reason given'}` : `placed, ${ro?.status ?? 'no order update'}`,
        why: lRejected ? 'the broker rejected an order the replay\'s venue accepted' : 'the replay\'s venue rejected an order the broker accepted',
      });
      // Its fills (on the side that accepted it) follow from that; they are not another divergence.
      for (const f of fillsOfLive(l.intent.id)) liveOnlyFills.push(f.fill);
      for (const f of fillsOfRep(r.intent.id)) repOnlyFills.push(f.fill);
      return 0;
    } else if (lo && ro && lo.order.qty !== ro.qty && lo.order.modifications === ro.modifications) {
      divergences.push({ ...base, kind: 'broker', ts: l.ts, line: lo.line, live: `quantity ${lo.order.qty}`, replay: `quantity ${ro.qty}`, why: 'the broker changed the order\'s quantity' });
    }
    const lf = fillsOfLive(l.intent.id);
    const rf = fillsOfRep(r.intent.id).map((x) => x.fill);
    const n = Math.max(lf.length, rf.length);
    let same = 0;
    for (let k = 0; k < n; k++) {
      const a = lf[k];
      const b = rf[k];
      if (a && b) pairedFills.push({ l: a.fill, r: b });
      else if (a) liveOnlyFills.push(a.fill);
      else if (b) repOnlyFills.push(b);
      if (a && b && a.fill.qty === b.qty && a.fill.price === b.price && Math.abs(a.fill.ts - b.ts) <= tolerance) same++;
    }
    if (same < n && !moved) {
      const late = lf.find((f) => f.arrived - f.fill.ts > lateMs);
      const first = lf[0];
      const gaps = first ? live.gapsIn(l.ts, first.arrived) : live.gapsIn(l.ts, Infinity);
      const missing = lf.length === 0 && rf.length > 0;
      const stream = late !== undefined || (missing && gaps.length > 0);
      divergences.push({
        ...base,
        kind: stream ? 'update' : 'fill',
        ts: first?.fill.ts ?? rf[0]?.ts ?? l.ts,
        line: first?.line ?? l.line,
        live: lf.length ? fillText(lf.map((f) => f.fill)) : 'no fill',
        replay: rf.length ? fillText(rf) : 'no fill',
        why: stream
          ? late
            ? `the live fill reached the engine ${((late.arrived - late.fill.ts) / 1000).toFixed(1)} s after it happened${gaps.length ? ` (${gaps.map((g) => `${g.source} down ${at(g.from)}-${g.to !== undefined ? at(g.to) : 'end'}`).join(', ')})` : ''}`
            : `no live fill arrived: ${gaps.map((g) => `${g.source} down ${at(g.from)}-${g.to !== undefined ? at(g.to) : 'end'}`).join(', ')}`
          : fillWhy(lf.map((f) => f.fill), rf),
      });
    }
    return same;
  }

  function decisionDivergence(sid: string, l: LiveDecision | undefined, r: ReplayDecision | undefined, how: string): Divergence {
    const m = l?.market ?? r!.market;
    const inputs = inputsAt(sid, l?.market ?? m, r?.market ?? m);
    const late = inputs.late;
    return {
      kind: late ? 'update' : 'decision',
      ts: l?.ts ?? r!.ts,
      strategyId: sid,
      ...(l ? { tag: l.intent.id, line: l.line } : r ? { tag: r.intent.id } : {}),
      live: l ? `${describeIntent(l.intent)} at ${at(l.ts)}` : 'no decision',
      replay: r ? `${describeIntent(r.intent)} at ${at(r.ts)}` : 'no decision',
      why: `${how}; ${inputs.text}`,
    };
  }

  /** What the strategy saw differently: the market data is the same recording, so its positions and working orders. */
  function inputsAt(sid: string, lm: number, rm: number): { text: string; late: boolean } {
    const m = Math.min(lm, rm);
    const net = (fills: ReadonlyArray<{ fill: FillEvent; market: number }>): Map<string, number> => {
      const out = new Map<string, number>();
      for (const f of fills) if (f.market < m && f.fill.strategyId === sid) out.set(f.fill.instrument, (out.get(f.fill.instrument) ?? 0) + (f.fill.side === 'BUY' ? f.fill.qty : -f.fill.qty));
      return out;
    };
    const ln = net(liveFillsBySid.get(sid) ?? []);
    const rn = net(repFillsBySid.get(sid) ?? []);
    const diffs: string[] = [];
    for (const inst of new Set([...ln.keys(), ...rn.keys()])) {
      const a = ln.get(inst) ?? 0;
      const b = rn.get(inst) ?? 0;
      if (a !== b) diffs.push(`position in ${inst}: live ${a}, replay ${b}`);
    }
    // A live fill of this strategy booked late just before: the strategy decided on stale orders.
    const late = (liveFillsBySid.get(sid) ?? []).find((f) => f.market >= m - 1 && f.market <= Math.max(lm, rm) && f.arrived - f.fill.ts > lateMs);
    if (late) diffs.push(`its fill ${late.fill.fillId} reached the live engine ${((late.arrived - late.fill.ts) / 1000).toFixed(1)} s late`);
    if (diffs.length === 0) diffs.push(lm === rm ? 'same market data, positions and orders: its own state differed (earlier decisions)' : `live decided after market event ${lm}, the replay after ${rm}: order updates reached it at other moments`);
    return { text: `inputs that differed: ${diffs.join('; ')}`, late: late !== undefined };
  }
}

function fillText(fills: readonly FillEvent[]): string {
  return fills.map((f) => `${f.side} ${f.qty} @ ${inr(f.price)} at ${at(f.ts)}`).join(', ');
}

function fillWhy(l: readonly FillEvent[], r: readonly FillEvent[]): string {
  if (l.length === 0) return 'the tick model filled it; live it never filled';
  if (r.length === 0) return 'live it filled; against the recorded ticks it never did (the live book had depth or prices the ticks do not show)';
  const lq = l.reduce((a, f) => a + f.qty, 0);
  const rq = r.reduce((a, f) => a + f.qty, 0);
  if (lq !== rq || l.length !== r.length) return `quantity: live ${lq} in ${l.length} fills, replay ${rq} in ${r.length} (the live book's depth vs the ticks' top of book)`;
  const lp = l.reduce((a, f) => a + f.price * f.qty, 0) / lq;
  const rp = r.reduce((a, f) => a + f.price * f.qty, 0) / rq;
  const lag = l[0]!.ts - r[0]!.ts;
  if (lp !== rp && lag > 0) return `price: live ${inr(lp)}, replay ${inr(rp)}, ${inr(Math.abs(lp - rp))} apart: the live order met the book ${(lag / 1000).toFixed(1)} s after the tick it was decided on (order latency; the replay fills on that tick)`;
  if (lp !== rp) return `price: live ${inr(lp)}, replay ${inr(rp)}, ${inr(Math.abs(lp - rp))} apart (the live book vs the tick model)`;
  return `time: live ${at(l[0]!.ts)}, replay ${at(r[0]!.ts)} (the order reached the live venue later than the tick it decided on)`;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}
