/**
 * The command line as a function: parse `argv`, run the command, resolve to the exit code. The
 * bin runs it from dist/'s bundle (bin/cli-loader.js calls `runCli`), or through main.ts.
 */
import { execute } from './execute.js';
import { buildProgram } from './program.js';

export function runCli(argv: readonly string[]): Promise<number> {
  return execute(buildProgram(), argv);
}
