/**
 * Error lines a one-shot command's logger held back (src/core/cli-log.ts) until the CLI knows how
 * the command ended (src/cli/execute.ts). Its own module, free of pino, so the CLI's runner has it
 * without loading the logger: a command that never logs never loads pino.
 */
const held: Array<{ line: string; msg: string }> = [];

/** Keeps one formatted error line (and its message, to recognise a repeat) for `flushHeldErrors`. */
export function holdError(line: string, msg: string): void {
  held.push({ line, msg });
}

/**
 * Prints the held error lines that do not repeat `printed` (the message of the error the command
 * ended with), and forgets them all.
 */
export function flushHeldErrors(printed: string | undefined, write: (line: string) => void = (l) => process.stderr.write(l)): void {
  for (const { line, msg } of held.splice(0)) {
    if (printed !== undefined && msg !== '' && printed.includes(msg)) continue;
    write(line);
  }
}
