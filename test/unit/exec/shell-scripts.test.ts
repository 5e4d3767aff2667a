import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASH_RC_FILE } from '../../../src-main/core/exec/shell/shell-integration';
import { ZSH_RC_FILES } from '../../../src-main/core/exec/shell/zsh-integration';

// The shell-integration scripts are real files (resources/shell/), held to a linter: ShellCheck for
// bash, `zsh -n` (parse without running) for zsh, which ShellCheck does not read. CI installs both
// (.ci/run); a machine without them fails here rather than passing unchecked.

const run = promisify(execFile);
const RESOURCES = resolve(import.meta.dirname, '../../../resources');
const SHELL_DIR = join(RESOURCES, 'shell');

async function check(program: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(program, args);
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code?: unknown; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT')
      throw new Error(`${program} is not installed (apt-get install ${program}); the shell scripts cannot be checked`, { cause: err });
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'oi-shell-lint-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('shell integration scripts', () => {
  it('are the files the engine loads, and nothing else is in resources/shell', async () => {
    const loaded = [BASH_RC_FILE, ...ZSH_RC_FILES.map((f) => f.resource)].map((f) => join(RESOURCES, f)).sort();
    const present = (await readdir(SHELL_DIR)).map((f) => join(SHELL_DIR, f)).sort();
    expect(present).toEqual(loaded);
  });

  it('bash: clean under ShellCheck at every severity', async () => {
    const result = await check('shellcheck', ['--severity=style', join(RESOURCES, BASH_RC_FILE)]);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('bash: ShellCheck does flag a script with a mistake of the kind it must catch (the check can fail)', async () => {
    const bad = join(scratch, 'bad.bash');
    await writeFile(bad, '# shellcheck shell=bash\nfor f in $(ls *.txt); do echo $f; done\n');
    const result = await check('shellcheck', ['--severity=style', bad]);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/SC2045|SC2086/);
  });

  it('zsh: both rc files parse', async () => {
    for (const file of ZSH_RC_FILES) {
      const result = await check('zsh', ['-n', join(RESOURCES, file.resource)]);
      expect(result, file.resource).toEqual({ ok: true, output: '' });
    }
  });

  it('zsh: `zsh -n` does refuse a script that does not parse (the check can fail)', async () => {
    const bad = join(scratch, 'bad.zsh');
    await writeFile(bad, '__oi_f() {\n  if [[ -n $x ]]; then\n    print x\n}\n');
    expect((await check('zsh', ['-n', bad])).ok).toBe(false);
  });
});
