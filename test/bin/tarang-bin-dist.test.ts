/**
 * bin/tarang.js in a source checkout runs dist/, kept current by bin/dist-build.js. Each test builds
 * a small package in a temp folder (the real bin/ copied in, node_modules linked) and runs its bin
 * as a user would: a stale dist/ must never run, whatever changed.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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
  write(root, 'src/cli/main.ts', "import { word } from '../lib/word.js';\nconst n: number = 1;\nprocess.stdout.write(`${word()} ${n}\\n`);\n");
  write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'first';\n}\n");
  return root;
}

/** Writes a source file and moves its time forward, as an editor saving it a moment later would. */
let tick = 0;
function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
  const t = new Date(Date.UTC(2030, 0, 1) + ++tick * 1000);
  utimesSync(join(root, rel), t, t);
  utimesSync(join(root, rel, '..'), t, t);
}

function bin(root: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TARANG_')));
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin', 'tarang.js')], { cwd: root, env: { ...base, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('tarang bin in a source checkout', () => {
  it('compiles dist/ on the first start and runs the compiled JavaScript', async () => {
    const root = checkout();
    const r = await bin(root);
    expect(r).toMatchObject({ code: 0, stdout: 'first 1\n' });
    expect(existsSync(join(root, 'dist/src/cli/main.js'))).toBe(true);
    expect(existsSync(join(root, 'dist/.tarang-build.json'))).toBe(true);
  });

  it('runs an edited source, not the dist/ compiled before the edit', async () => {
    const root = checkout();
    expect((await bin(root)).stdout).toBe('first 1\n');
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'second';\n}\n");
    expect((await bin(root)).stdout).toBe('second 1\n');
    // Same size, new content: the modification time alone marks it changed.
    write(root, 'src/lib/word.ts', "export function word(): string {\n  return 'third!';\n}\n");
    expect((await bin(root)).stdout).toBe('third! 1\n');
  });

  it('compiles a file added since the last start and drops the output of a removed one', async () => {
    const root = checkout();
    await bin(root);
    write(root, 'src/lib/extra/more.ts', "export const more = 'added';\n");
    write(root, 'src/cli/main.ts', "import { more } from '../lib/extra/more.js';\nprocess.stdout.write(`${more}\\n`);\n");
    expect((await bin(root)).stdout).toBe('added\n');
    rmSync(join(root, 'src/lib/word.ts'));
    utimesSync(join(root, 'src/lib'), new Date(), new Date());
    expect((await bin(root)).code).toBe(0);
    expect(existsSync(join(root, 'dist/src/lib/word.js'))).toBe(false);
  });

  it('runs the sources through tsx, and says so, when dist/ cannot be written', async () => {
    const root = checkout();
    writeFileSync(join(root, 'dist'), 'not a folder');
    const r = await bin(root);
    expect(r.stdout).toBe('first 1\n');
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
    expect((await bin(root, { TARANG_DIST: '1' })).stdout).toBe('first 1\n');
  });
});
