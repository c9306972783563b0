/**
 * Reads one session recording (format.ts): the header first, then the events in record order,
 * each with its line number so that every message can name the line.
 *
 * Streaming, in batches: a full-day recording of thousands of instruments holds tens of millions
 * of ticks, so the file is never held whole; lines are parsed chunk by chunk and handed over as
 * arrays (one await per chunk, not per line). The source is a file path or any stream of text (the
 * bench generates a recording on the fly).
 *
 * Errors name the source and line: an old recording (no header, made before version 1), a newer
 * version, a header that does not parse, a malformed line in the middle, and a truncated file (the
 * last line ends mid-event because the process stopped while writing; `torn: 'skip'` reads up to
 * the line before and says so through `onTorn`). A second header is a later session appended to
 * the same day's file (the daemon restarted): reading stops there and `laterSessions` says so.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Event } from '../../core/events.js';
import { formatZodIssues } from '../../core/zod-issues.js';
import { isHeaderLine, RECORDING_VERSION, RecordingError, RecordingHeaderSchema, type RecordingHeader } from './format.js';

export interface RecordedLine {
  /** 1-based line of the file. */
  readonly line: number;
  readonly event: Event;
}

export interface ReadOptions {
  /** A torn last line: `error` (default) or `skip` it (reported to `onTorn`). */
  readonly torn?: 'error' | 'skip';
  readonly onTorn?: (line: number) => void;
}

export interface OpenedRecording {
  readonly source: string;
  readonly header: RecordingHeader;
  /** The events after the header, in batches, in record order (iterate once). */
  readonly batches: AsyncGenerator<readonly RecordedLine[]>;
  /** After iterating: how many later sessions (headers) follow the one read. */
  laterSessions(): number;
  /** After iterating: the last line read. */
  lastLine(): number;
}

export type RecordingSource = string | { readonly name: string; readonly stream: Readable | AsyncIterable<string | Buffer> };

/** Opens a recording and reads its header; throws a RecordingError naming the line on anything wrong. */
export async function openRecording(source: RecordingSource, options: ReadOptions = {}): Promise<OpenedRecording> {
  const name = typeof source === 'string' ? source : source.name;
  const stream = typeof source === 'string' ? createReadStream(source, { encoding: 'utf8', highWaterMark: 1 << 20 }) : source.stream;
  const lines = lineBatches(stream, name);
  const state = { later: 0, last: 0 };
  let first: { line: number; text: string } | undefined;
  let pending: LineBatch = { first: 1, lines: [] };
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    const batch = next.value;
    const i = batch.lines.findIndex((l) => l.length > 0);
    if (i < 0) continue;
    first = { line: batch.first + i, text: batch.lines[i]! };
    pending = { first: batch.first + i + 1, lines: batch.lines.slice(i + 1) };
    break;
  }
  if (!first) throw new RecordingError(`${name}: empty file, no recording header on line 1`, { source: name, line: 1 });
  const header = parseHeader(first.text, first.line, name, pending.lines.length === 0);
  state.last = first.line;

  async function* events(): AsyncGenerator<readonly RecordedLine[]> {
    let batch = pending;
    let torn: { line: number; error: unknown } | undefined;
    for (;;) {
      const out: RecordedLine[] = [];
      const texts = batch.lines;
      for (let k = 0; k < texts.length; k++) {
        const text = texts[k]!;
        const line = batch.first + k;
        if (torn) throw new RecordingError(`${name}:${torn.line}: not a JSON event`, { source: name, line: torn.line }, { cause: torn.error });
        if (text.length === 0) continue;
        let v: unknown;
        try {
          v = JSON.parse(text);
        } catch (e) {
          // Only the last line may be torn; decided once we know whether another line follows.
          torn = { line, error: e };
          continue;
        }
        if (isHeaderLine(v)) {
          state.later++;
          // A later session of the same day: the one read ends here.
          if (out.length > 0) yield out;
          for (;;) {
            const n = await lines.next();
            if (n.done) return;
            for (const x of n.value.lines) if (x.startsWith('{"format":')) state.later++;
          }
        }
        if (!isEventShape(v)) throw new RecordingError(`${name}:${line}: expected an event with "type" and "ts", got ${text.slice(0, 80)}`, { source: name, line });
        out.push({ line, event: v });
        state.last = line;
      }
      if (out.length > 0) yield out;
      const n = await lines.next();
      if (n.done) break;
      batch = n.value;
    }
    if (torn) {
      if ((options.torn ?? 'error') === 'error') {
        throw new RecordingError(
          `${name}:${torn.line}: truncated: the last line ends mid-event (the process stopped while writing it); events up to line ${torn.line - 1} are whole (replay them with --allow-truncated)`,
          { source: name, line: torn.line },
        );
      }
      options.onTorn?.(torn.line);
    }
  }

  return { source: name, header, batches: events(), laterSessions: () => state.later, lastLine: () => state.last };
}

function parseHeader(text: string, line: number, name: string, alone: boolean): RecordingHeader {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const what = alone ? 'truncated: the header line ends mid-object' : 'not JSON';
    throw new RecordingError(`${name}:${line}: ${what}; a recording starts with its header line`, { source: name, line }, { cause: e });
  }
  if (!isHeaderLine(v)) {
    const old = isEventShape(v);
    throw new RecordingError(
      old
        ? `${name}:${line}: an old recording (no version line: the first line is a "${(v as Event).type}" event); recordings made before format version 1 hold no config, strategies or instruments and cannot be replayed; record the session again with this tarang`
        : `${name}:${line}: not a tarang recording (the first line should be {"format":"tarang-recording","version":${RECORDING_VERSION},...})`,
      { source: name, line },
    );
  }
  const incomplete = (v as { incomplete?: unknown }).incomplete;
  if (typeof incomplete === 'string') throw new RecordingError(`${name}:${line}: nothing to replay: ${incomplete}`, { source: name, line });
  if (typeof v.version !== 'number' || v.version > RECORDING_VERSION) {
    throw new RecordingError(`${name}:${line}: recording format version ${JSON.stringify(v.version)}; this tarang reads versions up to ${RECORDING_VERSION} (upgrade tarang)`, { source: name, line });
  }
  const parsed = RecordingHeaderSchema.safeParse(v);
  if (!parsed.success) throw new RecordingError(`${name}:${line}: recording header: ${formatZodIssues(parsed.error, { limit: 3 })}`, { source: name, line });
  return parsed.data;
}

function isEventShape(v: unknown): v is Event {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' && typeof (v as { ts?: unknown }).ts === 'number';
}

/** Lines of a text stream in batches (one per chunk read): the first one's number (from 1) and the texts. */
async function* lineBatches(stream: Readable | AsyncIterable<string | Buffer>, name: string): AsyncGenerator<LineBatch> {
  let rest = '';
  let n = 0;
  try {
    for await (const chunk of stream) {
      const text = rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      const parts = text.split('\n');
      rest = parts.pop()!;
      if (parts.length === 0) continue;
      for (let i = 0; i < parts.length; i++) if (parts[i]!.endsWith('\r')) parts[i] = parts[i]!.slice(0, -1);
      yield { first: n + 1, lines: parts };
      n += parts.length;
    }
  } catch (e) {
    if (e instanceof RecordingError) throw e;
    throw new RecordingError(`${name}: cannot read the recording: ${(e as Error).message}`, { source: name }, { cause: e });
  }
  if (rest.length > 0) yield { first: n + 1, lines: [rest] };
}

interface LineBatch {
  readonly first: number;
  readonly lines: string[];
}
