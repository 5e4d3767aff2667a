import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMissingDependency } from '../../../src-main/core/exec/auto-install/missing-dependency';
import { zshMissingNote } from '../../../src-main/core/exec/shell/shell-choice';
import { type Harness, startHarness, stdoutOf } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// Which shell runs a cell, with real bash and zsh. $SHELL is passed to the engine explicitly, so the
// tests do not depend on the login shell of whoever runs them.

const WHICH = 'echo ${ZSH_VERSION:+zsh}${BASH_VERSION:+bash}';
const pathOf = (command: string): string => execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();

describe.runIf(installed('zsh'))('which shell a shell cell runs in', () => {
  const zshPath = installed('zsh') ? pathOf('zsh') : '/bin/zsh';
  const harnesses: Harness[] = [];
  /** A PATH holding bash and the basics (sleep too) but no zsh, and one holding both shells. */
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
    for (const name of ['bash', 'python3', 'node', 'sleep']) {
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

  it('says in the result which shell ran each shell cell, and nothing for other languages', async () => {
    const h = await harness(zshPath);
    const shellOf = async (language: string, settings: Parameters<Harness['run']>[2] = {}): Promise<string | undefined> =>
      (await h.run(language, WHICH, settings)).shell;
    expect(await shellOf('shell')).toBe('zsh');
    expect(await shellOf('terminal')).toBe('zsh');
    expect(await shellOf('shell', { settings: { shell: 'bash' } })).toBe('bash');
    expect(await shellOf('bash')).toBe('bash');
    expect(await shellOf('sh')).toBe('bash');
    expect(await shellOf('zsh')).toBe('zsh');
    expect(await shellOf('zsh', { settings: { env: { PATH: noZsh } } })).toBe('bash');
    expect(await shellOf('python')).toBeUndefined();
  });

  /** Runs code that prints "started" and resolves once it has, with the run's result to come. */
  const started = (h: Harness, language: string, code: string, extra: Parameters<Harness['run']>[2] = {}) =>
    new Promise<{ result: ReturnType<Harness['run']> }>((resolve) => {
      let text = '';
      const result = h.run(language, code, {
        ...extra,
        onTerminal: (data) => {
          text += data;
          if (text.includes('started')) resolve({ result });
        },
      });
      // Never printed (the run failed at once): the caller's assertions on the result say why.
      void result.then(() => resolve({ result }));
    });

  it('interrupts a `shell` cell by the name `shell` in the session it resolved to, and not by `bash`', async () => {
    const h = await harness(zshPath);
    // A short timeout: without the interrupt reaching zsh, the run would end as a timeout instead.
    const long = await started(h, 'shell', 'echo st""arted; sleep 30', { settings: { timeoutMs: 8000 } });
    h.service.interrupt('conv-1', 'shell');
    const result = await long.result;
    expect(result.status, result.forModel).toBe('interrupted');
    expect(result.shell).toBe('zsh');
    expect(result.forModel).toContain('the zsh session is still running');

    // `bash` names the bash session only: the zsh run goes on to its end.
    const short = await started(h, 'shell', 'echo st""arted; sleep 1; echo finished');
    h.service.interrupt('conv-1', 'bash');
    const ended = await short.result;
    expect(ended.status, ended.forModel).toBe('done');
    expect(stdoutOf(ended)).toBe('started\nfinished\n');

    // A `zsh` cell that ran in bash (no zsh on PATH) is reached by the name `zsh`.
    const env = { PATH: noZsh };
    const fallback = await started(h, 'zsh', 'echo st""arted; sleep 30', { settings: { env, timeoutMs: 8000 } });
    h.service.interrupt('conv-1', 'zsh');
    const stopped = await fallback.result;
    expect(stopped.status, stopped.forModel).toBe('interrupted');
    expect(stopped.shell).toBe('bash');
  });

  it('restarts the session a language name resolves to: `shell` where shell cells ran, `zsh` in bash without zsh', async () => {
    const h = await harness(zshPath);
    await h.run('shell', 'in_zsh=z');
    await h.run('bash', 'in_bash=b');
    await h.service.restart('conv-1', 'shell');
    expect(await ran(h, 'zsh', 'echo "[${in_zsh-}]"')).toBe('[]');
    expect(await ran(h, 'bash', 'echo "[${in_bash-}]"')).toBe('[b]');

    // The same PATH throughout: another bash on PATH would start a new session by itself.
    const env = { PATH: noZsh };
    await h.run('zsh', 'kept=k', { settings: { env } });
    expect(await ran(h, 'bash', 'echo "[${kept-}]"', { settings: { env } })).toBe('[k]');
    await h.service.restart('conv-1', 'zsh');
    expect(await ran(h, 'bash', 'echo "[${kept-}]"', { settings: { env } })).toBe('[]');

    // A conversation whose `shell` cells have not run yet: the name may mean either shell, so both restart.
    await h.run('zsh', 'z=1', { conversationId: 'conv-2' });
    await h.run('bash', 'b=1', { conversationId: 'conv-2' });
    await h.service.restart('conv-2', 'terminal');
    expect(await ran(h, 'zsh', 'echo "[${z-}]"', { conversationId: 'conv-2' })).toBe('[]');
    expect(await ran(h, 'bash', 'echo "[${b-}]"', { conversationId: 'conv-2' })).toBe('[]');
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
