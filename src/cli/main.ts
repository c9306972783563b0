/** Entry point of the `tarang` bin: run the command line to its end (src/cli/execute.ts). */
import { execute } from './execute.js';
import { buildProgram } from './program.js';

process.exitCode = await execute(buildProgram(), process.argv);
