/**
 * The yes/no question before an order write. `--yes` skips it; without a terminal on stdin (a
 * script, a pipe, cron) there is nobody to ask, so the write is refused unless `--yes` was given:
 * an order must never go out because a prompt read an empty line from a pipe.
 */
import { createInterface } from 'node:readline/promises';
import { NotConfirmed } from './order-errors.js';

export interface ConfirmIo {
  readonly input: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly output: NodeJS.WritableStream;
}

const STDIO: ConfirmIo = { input: process.stdin, output: process.stderr };

/**
 * Shows `summary`, asks `question`; resolves when the answer is yes, throws NotConfirmed (its
 * message starting with `notDone`, e.g. "order not placed") otherwise.
 */
export async function confirmOrder(summary: string, question: string, yes: boolean | undefined, notDone: string, io: ConfirmIo = STDIO): Promise<void> {
  if (yes) return;
  if (!io.input.isTTY) {
    throw new NotConfirmed(`${notDone}: it needs a confirmation and stdin is not a terminal to ask on; nothing was sent (add --yes to send it without asking)`, { reason: 'no-tty' });
  }
  io.output.write(summary);
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  try {
    const answer = (await rl.question(`${question} [y/N] `)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return;
  } finally {
    rl.close();
  }
  throw new NotConfirmed(`${notDone}: answered no; nothing was sent`, { reason: 'declined' });
}
