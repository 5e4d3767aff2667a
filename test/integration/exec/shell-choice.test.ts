import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMissingDependency } from '../../../src-main/core/exec/auto-install/missing-dependency';
import { zshMissingNote } from '../../../src-main/core/exec/shell-choice';
import { type Harness, startHarness, stdoutOf } from './helpers';
import { installed } from '../../support/installed';

// Which shell runs a cell, with real bash and zsh. $SHELL is passed to the engine explicitly, so the
// tests do not depend on the login shell of whoever runs them.

const WHICH = 'echo ${ZSH_VERSION:+zsh}${BASH_VERSION:+bash}';
const pathOf = (command: string): string => execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();

describe.runIf(installed('zsh'))('which shell a shell cell runs in', () => {
  const zshPath = installed('zsh') ? pathOf('zsh') : '/bin/zsh';
  const harnesses: Harness[] = [];
  /** A PATH holding bash and the basics but no zsh, and one holding both shells. */
  let noZsh: string;
  let withZsh: string;

  const harness = async (shell: string): Promise<Harness> => {
    const h = await startHarness({ baseEnv: { ...process.env, SHELL: shell } });
    harnesses.push(h);
    return h;
  };
  const ran = async (h: Harness, ...args: Parameters<Harness['run']>): Promise<string> => stdoutOf(await h.run(...args)).trim();

  beforeAll(async () => {
    noZsh = await mkdtemp(join(tmpdir(), 'oi-path-nozsh-'));
    withZsh = await mkdtemp(join(tmpdir(), 'oi-path-zsh-'));
    for (const name of ['bash', 'python3', 'node']) {
      await symlink(pathOf(name), join(noZsh, name));
      await symlink(pathOf(name), join(withZsh, name));
    }
    await symlink(zshPath, join(withZsh, 'zsh'));
  });
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await rm(noZsh, { recursive: true, force: true });
    await rm(withZsh, { recursive: true, force: true });
  });

  it('runs `shell` cells in zsh when the login shell is zsh, in the same session as `zsh` cells; bash and sh stay in bash', async () => {
    const h = await harness(zshPath);
    expect(await ran(h, 'shell', `${WHICH}; from_shell=1; list=a,b; print -l \${(s:,:)list}`)).toBe('zsh\na\nb');
    expect(await ran(h, 'zsh', 'echo $from_shell')).toBe('1');
    expect(await ran(h, 'console', `${WHICH} $from_shell`)).toBe('zsh 1');
    expect(await ran(h, 'bash', `${WHICH} [\${from_shell-}]; from_bash=2`)).toBe('bash []');
    expect(await ran(h, 'sh', `${WHICH} $from_bash`)).toBe('bash 2');
  });

  it('runs `shell` cells in bash when the login shell is bash or neither bash nor zsh', async () => {
    for (const login of ['/bin/bash', '/usr/bin/fish']) {
      const h = await harness(login);
      expect(await ran(h, 'shell', WHICH)).toBe('bash');
      expect(await ran(h, 'zsh', WHICH)).toBe('zsh');
    }
  });

  it('follows the exec.shell setting over the login shell, for `shell` cells only', async () => {
    const h = await harness(zshPath);
    expect(await ran(h, 'shell', `${WHICH}; in_zsh=z`)).toBe('zsh');
    // Switching the setting moves `shell` cells to the other session; each keeps its own state.
    expect(await ran(h, 'shell', `${WHICH} [\${in_zsh-}]; in_bash=b`, { settings: { shell: 'bash' } })).toBe('bash []');
    expect(await ran(h, 'zsh', WHICH, { settings: { shell: 'bash' } })).toBe('zsh');
    expect(await ran(h, 'shell', `${WHICH} $in_zsh`, { settings: { shell: 'auto' } })).toBe('zsh z');

    const b = await harness('/bin/bash');
    expect(await ran(b, 'shell', WHICH, { settings: { shell: 'zsh' } })).toBe('zsh');
    expect(await ran(b, 'bash', WHICH, { settings: { shell: 'zsh' } })).toBe('bash');
  });

  it('runs `zsh` cells in bash when zsh is missing, with a one-line note, in the bash session', async () => {
    const h = await harness(zshPath);
    const env = { PATH: noZsh };
    const fallback = await h.run('zsh', `${WHICH}; kept=5`, { settings: { env } });
    expect(fallback.status, fallback.forModel).toBe('done');
    expect(stdoutOf(fallback)).toBe('bash\n');
    expect(fallback.forModel).toBe(`${zshMissingNote()}\nbash`);
    expect(await ran(h, 'bash', 'echo $kept', { settings: { env } })).toBe('5');
    // The setting asks for zsh by name too; the login shell alone does not (no note).
    const set = await h.run('shell', WHICH, { settings: { env, shell: 'zsh' } });
    expect(set.forModel).toBe(`${zshMissingNote()}\nbash`);
    const login = await h.run('shell', WHICH, { settings: { env } });
    expect(login.forModel).toBe('bash');
  });

  it('recognises a missing command in a zsh cell, as in bash, for the auto-installer', async () => {
    const h = await harness('/bin/bash');
    const result = await h.run('zsh', 'oi_no_such_tool --version');
    expect(result.exitCode).toBe(127);
    expect(findMissingDependency('zsh', result)).toMatchObject({ kind: 'command', command: 'oi_no_such_tool' });
  });

  it('lists zsh among the languages and the runtimes available here', async () => {
    const h = await harness('/bin/bash');
    const zsh = (await h.service.languages()).find((l) => l.name === 'zsh');
    expect(zsh).toMatchObject({ available: true, persistent: true, aliases: ['zsh'] });
    expect(zsh?.version).toMatch(/^\d+\.\d+/);
    const missing = await h.run('ruby', 'puts 1', { settings: { env: { PATH: withZsh } } });
    expect(missing.status).toBe('unavailable');
    expect(missing.forModel).toMatch(/available here: python \d+\.\d+, node \d+, bash \d+\.\d+, zsh \d+\.\d+\.$/);
    const without = await h.run('ruby', 'puts 1', { settings: { env: { PATH: noZsh } } });
    expect(without.forModel).not.toContain('zsh');
  });
});
