import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/core/paths.js';

const run = promisify(execFile);

describe('tarang bin', () => {
  it('prints its help with the subcommands', async () => {
    const { stdout } = await run(process.execPath, ['bin/tarang.js', '--help'], { cwd: packageRoot() });
    expect(stdout).toContain('Usage: tarang');
    expect(stdout).toContain('demo');
  });

  it('fails with a clear message on an unknown command', async () => {
    await expect(run(process.execPath, ['bin/tarang.js', 'no-such-command'], { cwd: packageRoot() })).rejects.toMatchObject({
      stderr: expect.stringContaining("unknown command 'no-such-command'"),
    });
  });
});
