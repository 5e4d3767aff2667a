import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_DIR, stdoutOf, useHarness } from '../../support/exec-harness';

// Pagers and editors never wait invisibly (docs/exec.md#environment): code runs with every pager
// variable set to cat and every editor variable set to a stand-in that fails at once, saying why.
// The user's own EDITOR (from the environment the app was started in) is for their terminal; one
// set in Settings → Environment variables still wins.

const LONG_TIMEOUT = { timeoutMs: 120_000 };

describe('pagers and editors', () => {
  const h = useHarness({
    baseEnv: { ...process.env, EDITOR: 'vim', VISUAL: 'vim', PAGER: 'less', GIT_PAGER: 'less', MANPAGER: 'less' },
  });
  beforeAll(async () => {
    execFileSync('git', ['init', '-q', h.workspace]);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', h.workspace, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { stdio: 'ignore' });
    for (let i = 1; i <= 120; i++) git('commit', '-q', '--allow-empty', '-m', `commit number ${i}`);
  });

  it('git log prints every commit and ends, even with core.pager set to less', { timeout: 60_000 }, async () => {
    const result = await h.run(
      'bash',
      'git log --oneline | wc -l; git -c core.pager=less log --format=%s | tail -n 1; git log -n 1 --format=%s',
      { settings: LONG_TIMEOUT },
    );
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('120\ncommit number 1\ncommit number 120\n');
    expect(result.forModel).not.toContain('asked for input');
  });

  it('the pager variables are cat and the editors fail at once with a clear message', { timeout: 60_000 }, async () => {
    const vars = await h.run('bash', 'echo "$PAGER $GIT_PAGER $MANPAGER $SYSTEMD_PAGER [$AWS_PAGER]"');
    expect(stdoutOf(vars)).toBe('cat cat cat cat []\n');
    const commit = await h.run(
      'bash',
      'echo hello > notes.txt && git add notes.txt && git -c user.name=T -c user.email=t@example.com commit',
      { settings: LONG_TIMEOUT },
    );
    expect(commit.status).toBe('failed');
    expect(commit.forModel).toContain('stands in for a text editor here');
    expect(commit.forModel).toContain('git commit -m "message"');
    expect(commit.forModel).not.toContain('asked for input');
    const python = await h.run(
      'python',
      // Through a shell, as git, crontab and click run EDITOR (its value is one shell word, quoted
      // when the app lives under a folder with a space: env.ts shellWord).
      'import os, subprocess\nr = subprocess.run(os.environ["EDITOR"] + " notes.txt", shell=True)\nprint("exit", r.returncode)',
      { settings: LONG_TIMEOUT },
    );
    expect(stdoutOf(python)).toContain('exit 1');
    expect(python.forModel).toContain('nobody can type into an editor in this session');
  });

  it('man prints the page instead of paging it', { timeout: 60_000 }, async () => {
    // A page of our own: system images often leave out /usr/share/man.
    writeFileSync(
      join(h.workspace, 'tool.1'),
      '.TH TOOL 1\n.SH NAME\ntool \\- does one thing\n.SH DESCRIPTION\nLine of the manual page.\n',
    );
    const result = await h.run('bash', 'man -l tool.1; echo "man exited $?"', { settings: LONG_TIMEOUT });
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toContain('does one thing');
    expect(stdoutOf(result)).toContain('man exited 0');
    expect(result.forModel).not.toContain('asked for input');
  });

  it('the stand-in editor is an executable script clean under ShellCheck', () => {
    const script = join(RESOURCES_DIR, 'bin', 'oi-no-editor');
    expect(statSync(script).mode & 0o111).not.toBe(0);
    expect(execFileSync('shellcheck', ['--severity=style', script], { encoding: 'utf8' })).toBe('');
  });

  it('an editor set in Settings → Environment variables wins', { timeout: 60_000 }, async () => {
    const result = await h.run('bash', 'echo "$EDITOR"', { conversationId: 'own-editor', settings: { env: { EDITOR: 'nano' } } });
    expect(stdoutOf(result)).toBe('nano\n');
  });
});
