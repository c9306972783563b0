/**
 * Runs the real `tarang` bin in a child process, as a user's shell would: the exit code and both
 * streams come back, whatever the code. Exit 13 is Node's "unsettled top-level await" (a command
 * that ended while it still waited on something): no tarang command may end that way, so this
 * helper fails the test on it, naming the command. Every CLI test that spawns the bin goes through here.
 */
import { spawn } from 'node:child_process';
import { packageRoot } from '../../src/core/paths.js';

export interface BinResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `tarang <args>` with `env` over a clean copy of this process's environment minus TARANG_*. */
export function tarang(args: readonly string[], env: Readonly<Record<string, string>> = {}, stdin?: string): Promise<BinResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TARANG_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/tarang.js', ...args], { cwd: packageRoot(), env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin ?? '');
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 13) reject(new Error(`tarang ${args.join(' ')} exited 13 (unsettled top-level await): it ended while still waiting\nstderr: ${stderr}`));
      else if (code === null) reject(new Error(`tarang ${args.join(' ')} was killed by ${signal}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

export interface RunningBin {
  /** Resolves with the output so far once `pattern` appears in stdout + stderr. */
  waitFor(pattern: RegExp, what: string): Promise<{ stdout: string; stderr: string }>;
  /** Sends SIGTERM and resolves with how the process ended (exit 13 rejects, as above). */
  stop(): Promise<BinResult>;
  /** The process id (a `tarang worker` is named host:pid on the queue). */
  readonly pid: number;
  /** Sends `signal` (e.g. SIGKILL) and resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<BinResult>;
}

/** A long-running `tarang` command (sim, run): wait for what it prints, then stop it. */
export function startTarang(args: readonly string[], env: Readonly<Record<string, string>> = {}): RunningBin {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TARANG_')));
  const child = spawn(process.execPath, ['bin/tarang.js', ...args], { cwd: packageRoot(), env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  const poke = (): void => waiters.splice(0).forEach((w) => w());
  child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), poke()));
  child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), poke()));
  const ended = new Promise<BinResult>((resolve, reject) => {
    child.on('close', (code, signal) => {
      poke();
      if (code === 13) reject(new Error(`tarang ${args.join(' ')} exited 13 (unsettled top-level await)\nstderr: ${stderr}`));
      else resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
  return {
    async waitFor(pattern, what) {
      while (!pattern.test(stdout + stderr)) {
        if (child.exitCode !== null) throw new Error(`tarang ${args.join(' ')} ended (code ${child.exitCode}) before ${what}\nstderr: ${stderr}`);
        await new Promise<void>((r) => waiters.push(r));
      }
      return { stdout, stderr };
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return ended;
    },
    pid: child.pid!,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return ended;
    },
  };
}
