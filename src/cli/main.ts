/** Entry point of the `tarang` bin: parse argv and run; a coded error prints cleanly, not as a stack. */
import { isTarangError, describeError } from '../core/errors.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (e) {
  if (isTarangError(e)) {
    process.stderr.write(`tarang: ${e.message} [${e.code}]\n`);
  } else {
    process.stderr.write(`tarang: ${describeError(e)}\n`);
    if (process.env['TARANG_DEBUG']) process.stderr.write(`${(e as Error).stack ?? ''}\n`);
  }
  process.exitCode = 1;
}
