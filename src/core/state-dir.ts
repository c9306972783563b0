/** Where tarang keeps local files (control token, shared broker sessions, default recordings): ~/.tarang unless TARANG_HOME says otherwise. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['TARANG_HOME'] || join(homedir(), '.tarang');
}
