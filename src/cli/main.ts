/** Entry point of the `tarang` bin when it runs dist/ file by file (or the sources): run the command line to its end. */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv);
