/**
 * bin/tarang.js in a source checkout runs dist/, kept current by bin/dist-build.js, as one bundle
 * (bin/cli-bundle.js) compiled from V8's code cache (bin/cli-loader.js). Each test builds a small
 * package in a temp folder (the real bin/ copied in, node_modules linked) and runs its bin as a
 * user would: a stale dist/ or bundle must never run, whatever changed. The package's command line
 * says how it was loaded: `bundle` (a script, where `module` exists) or `modules` (dist/ file by file).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/core/paths.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'tarang-bin-'));
  dirs.push(root);
  cpSync(join(packageRoot(), 'bin'), join(root, 'bin'), { recursive: true });
  symlinkSync(join(packageRoot(), 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'tarang-bin-test', type: 'module', private: true }));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, verbatimModuleSyntax: true, noEmit: true } }));
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.' }, include: ['src', 'backtest'] }));
  write(root, 'src/cli/main.ts', "import { runCli } from './cli.js';\nprocess.exitCode = await runCli(process.argv);\n");
  writeCli(root, "import { word } from '../lib/word.js';", 'word()');
  write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'first';\n}\n");
  return root;
}

/** src/cli/cli.ts: `runCli` prints `text` (after `imports`), then how it was loaded. */
function writeCli(root: string, imports: string, text: string): void {
  write(root, 'src/cli/cli.ts', `${imports}\nconst n: number = 1;\nexport async function runCli(argv: readonly string[]): Promise<number> {\n  process.stdout.write(\`\${${text}} \${n} \${typeof module === 'object' ? 'bundle' : 'modules'}\\n\`);\n  return argv.includes('fail') ? 2 : 0;\n}\n`);
}

const stamp = (root: string): { bundle: { entry: string } | null } => JSON.parse(readFileSync(join(root, 'dist/.tarang-build.json'), 'utf8')) as { bundle: { entry: string } | null };
const bundleFiles = (root: string): string[] => readdirSync(join(root, 'dist/cli')).sort();

/** Writes a source file and moves its time forward, as an editor saving it a moment later would. */
let tick = 0;
function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
  const t = new Date(Date.UTC(2030, 0, 1) + ++tick * 1000);
  utimesSync(join(root, rel), t, t);
  utimesSync(join(root, rel, '..'), t, t);
}

function bin(root: string, env: Record<string, string> = {}, args: readonly string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TARANG_')));
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin', 'tarang.js'), ...args], { cwd: root, env: { ...base, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('tarang bin in a source checkout', () => {
  it('compiles dist/ on the first start and runs the compiled JavaScript', async () => {
    const root = checkout();
    const r = await bin(root);
    expect(r).toMatchObject({ code: 0, stdout: 'first 1 bundle\n' });
    expect(existsSync(join(root, 'dist/src/cli/main.js'))).toBe(true);
    expect(stamp(root).bundle?.entry).toMatch(/^main-\w+\.cjs$/);
  });

  it('runs an edited source, not the dist/ compiled before the edit', async () => {
    const root = checkout();
    expect((await bin(root)).stdout).toBe('first 1 bundle\n');
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'second';\n}\n");
    expect((await bin(root)).stdout).toBe('second 1 bundle\n');
    // Same size, new content: the modification time alone marks it changed.
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'third!';\n}\n");
    expect((await bin(root)).stdout).toBe('third! 1 bundle\n');
    // And file by file, the same.
    expect((await bin(root, { TARANG_BUNDLE: '0' })).stdout).toBe('third! 1 modules\n');
  });

  it('compiles a file added since the last start and drops the output of a removed one', async () => {
    const root = checkout();
    await bin(root);
    write(root, 'src/lib/extra/more.ts', "export const more = 'added';\n");
    writeCli(root, "import { more } from '../lib/extra/more.js';", 'more');
    expect((await bin(root)).stdout).toBe('added 1 bundle\n');
    rmSync(join(root, 'src/lib/word.ts'));
    utimesSync(join(root, 'src/lib'), new Date(), new Date());
    expect((await bin(root)).code).toBe(0);
    expect(existsSync(join(root, 'dist/src/lib/word.js'))).toBe(false);
  });

  it('runs the sources through tsx, and says so, when dist/ cannot be written', async () => {
    const root = checkout();
    writeFileSync(join(root, 'dist'), 'not a folder');
    const r = await bin(root);
    expect(r.stdout).toBe('first 1 modules\n');
    expect(r.stderr).toContain('cannot bring dist/ up to date');
    expect(r.stderr).toContain('tsx');
  });

  it('runs dist/ as it is for TARANG_DIST=1 (an installed tarang), and says when it is missing', async () => {
    const root = checkout();
    const missing = await bin(root, { TARANG_DIST: '1' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dist/ is missing');
    await bin(root);
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'unbuilt';\n}\n");
    expect((await bin(root, { TARANG_DIST: '1' })).stdout).toBe('first 1 bundle\n');
    // An installed tarang whose dist/ has no bundle runs it file by file.
    rmSync(join(root, 'dist/cli'), { recursive: true });
    expect((await bin(root, { TARANG_DIST: '1' })).stdout).toBe('first 1 modules\n');
  });
});

describe('the bundle and its code cache', () => {
  it('writes a code cache when a command first ends well, and later starts use it without writing it again', async () => {
    const root = checkout();
    expect((await bin(root, {}, ['fail'])).code).toBe(2);
    expect(bundleFiles(root).filter((f) => f.endsWith('.v8'))).toEqual([]); // a failed run compiled little of the command
    await bin(root);
    const { entry } = stamp(root).bundle!;
    const cache = bundleFiles(root).find((f) => f.endsWith('.v8'));
    expect(cache).toMatch(new RegExp(`^${entry.replace('.cjs', '')}\\.main\\.${process.version.replace(/\./g, '\\.')}\\.v8$`));
    const made = statSync(join(root, 'dist/cli', cache!)).mtimeMs;
    expect((await bin(root)).stdout).toBe('first 1 bundle\n');
    // V8 took it (a refused cache would have been written again).
    expect(statSync(join(root, 'dist/cli', cache!)).mtimeMs).toBe(made);
  });

  it('never applies a cache to another bundle: a changed source makes a bundle of another name, with its own cache', async () => {
    const root = checkout();
    await bin(root);
    const first = stamp(root).bundle!.entry;
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'other';\n}\n");
    expect((await bin(root)).stdout).toBe('other 1 bundle\n');
    const second = stamp(root).bundle!.entry;
    expect(second).not.toBe(first);
    expect(bundleFiles(root).filter((f) => f.startsWith(second.replace('.cjs', '.')))).toHaveLength(2); // the bundle and its cache
  });

  it('keeps a superseded bundle a day for processes still running it, then removes it with its caches', async () => {
    const root = checkout();
    await bin(root);
    const a = stamp(root).bundle!.entry;
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'b';\n}\n");
    await bin(root);
    const b = stamp(root).bundle!.entry;
    expect(bundleFiles(root)).toContain(a);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    for (const f of bundleFiles(root).filter((f) => f.startsWith(a.replace('.cjs', '.')))) utimesSync(join(root, 'dist/cli', f), twoDaysAgo, twoDaysAgo);
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'c';\n}\n");
    expect((await bin(root)).stdout).toBe('c 1 bundle\n');
    const names = bundleFiles(root);
    expect(names.some((f) => f.startsWith(a.replace('.cjs', '.')))).toBe(false);
    expect(names).toContain(b);
    expect(names).toContain(stamp(root).bundle!.entry);
  });

  it('says so and runs dist/ file by file when dist/ cannot be bundled, and tries again when the sources change', async () => {
    const root = checkout();
    // A script has no import.meta.dirname: the bundle would fail at run time, so it is not built.
    writeCli(root, "import { word } from '../lib/word.js';\nconst here = import.meta.dirname;", 'word() + (here ? "" : "?")');
    const r = await bin(root);
    expect(r.stdout).toBe('first 1 modules\n');
    expect(r.stderr).toContain('could not bundle dist/');
    expect(stamp(root).bundle).toBeNull();
    expect((await bin(root)).stderr).toBe(''); // not tried again while nothing changed
    writeCli(root, "import { word } from '../lib/word.js';", 'word()');
    expect((await bin(root)).stdout).toBe('first 1 bundle\n');
  });
});
