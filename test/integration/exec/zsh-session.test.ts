import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stderrOf, stdoutOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';
import { envReadingUserRc } from '../../support/user-rc';

// What zsh sessions do beyond the contract every persistent language keeps (session-behaviour.test.ts).
// Real zsh under node-pty. .ci/run installs it; a machine without zsh skips these.
describe.runIf(installed('zsh'))('zsh sessions', () => {
  let home: string;
  beforeAll(async () => {
    // An empty home of the test's own, so the developer's ~/.zshrc plays no part.
    home = await mkdtemp(join(tmpdir(), 'oi-zsh-home-'));
  });
  // Registered before the harness: after-hooks run last-registered first, so this runs after its close.
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });
  const h = useHarness(() => ({ baseEnv: { ...process.env, HOME: home, ZDOTDIR: undefined } }));

  it('keeps variables, exports, functions and options between runs, with zsh syntax', async () => {
    const first = await h.run(
      'zsh',
      [
        'mkdir -p "sub dir" && cd "sub dir"',
        'list=a,b,c; typeset -A ages; ages=(ann 31 bob 42)',
        'export GREETING=hello',
        'twice() { print -r -- "$1$1" }',
        'setopt extended_glob',
        'touch one.txt two.txt; mkdir folder',
      ].join('\n'),
    );
    expect(first.status, first.forModel).toBe('done');
    expect(first.cwd).toBe(join(h.workspace, 'sub dir'));
    const second = await h.run(
      'zsh',
      [
        'print -l ${(s:,:)list}',
        'arr=(x y z); echo ${(j:,:)arr} ${#arr} ${arr[-1]}',
        'echo ${(ko)ages} $ages[ann]',
        "echo $GREETING $(twice ab) $(sh -c 'echo $GREETING')",
        'print -l *(.) ^*.txt',
        '[[ -o extended_glob ]] && echo extended',
        'pwd',
      ].join('\n'),
    );
    expect(second.status, second.forModel).toBe('done');
    expect(stdoutOf(second)).toBe(
      `a\nb\nc\nx,y,z 3 z\nann bob 31\nhello abab hello\none.txt\ntwo.txt\nfolder\nextended\n${h.workspace}/sub dir\n`,
    );
    expect(second.forModel).toBe(stdoutOf(second).trimEnd());
  });

  it('reports the exit code of the last command, without echoing the code', async () => {
    const result = await h.run('zsh', 'false; echo out; echo err >&2; (exit 3)');
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(3);
    // stderr is kept apart (its own terminal), and no stray "exit" line.
    expect(stdoutOf(result)).toBe('out\n');
    expect(stderrOf(result)).toBe('err\n');
    expect(result.forModel).toContain('[exit code 3]');
    expect(result.terminal).not.toContain('exit 3');
    expect(result.terminal).not.toContain('__oi');
    const ok = await h.run('zsh', 'nosuchcommand_oi; echo "went on"');
    expect(ok.status).toBe('done');
    expect(stdoutOf(ok)).toBe('went on\n');
    expect(stderrOf(ok)).toBe('zsh: command not found: nosuchcommand_oi\n');
  });

  it('is interrupted and restarted by the name `zsh`, and its results say zsh ran them', async () => {
    await h.run('zsh', 'named=kept');
    let printed = '';
    const result = await new Promise<Awaited<ReturnType<Harness['run']>>>((resolve) => {
      void h
        .run('zsh', 'echo st""arted; sleep 30', {
          settings: { timeoutMs: 8000 },
          onTerminal: (data) => {
            printed += data;
            if (printed.includes('started')) h.service.interrupt('conv-1', 'zsh');
          },
        })
        .then(resolve);
    });
    expect(result.status, result.forModel).toBe('interrupted');
    expect(result.shell).toBe('zsh');
    expect(stdoutOf(await h.run('zsh', 'echo $named'))).toBe('kept\n');
    await h.service.restart('conv-1', 'zsh');
    const after = await h.run('zsh', 'echo "[${named-}]"');
    expect(stdoutOf(after)).toBe('[]\n');
    expect(after.shell).toBe('zsh');
  });

  it('reports a cwd whose name holds ; \\ and a newline', async () => {
    const name = 'odd;na\\me\nline';
    const result = await h.run('zsh', `cd ${JSON.stringify(h.workspace)} && mkdir -p $'odd;na\\\\me\\nline' && cd $'odd;na\\\\me\\nline'`);
    expect(result.status, result.forModel).toBe('done');
    expect(result.cwd).toBe(join(h.workspace, name));
    await h.run('zsh', 'cd ..');
  });

  it('keeps working after code empties the hook arrays, adds its own hooks or traces', async () => {
    const cleared = await h.run('zsh', 'precmd_functions=(); preexec_functions=(); echo cleared');
    expect(stdoutOf(cleared)).toBe('cleared\n');
    const hooked = await h.run(
      'zsh',
      'autoload -Uz add-zsh-hook; noisy() { echo NOISY }; add-zsh-hook precmd noisy; add-zsh-hook preexec noisy; echo added',
    );
    expect(stdoutOf(hooked)).toBe('added\n');
    const after = await h.run('zsh', 'echo next; noisy');
    // The hooks still run (silenced); the cell's own call prints.
    expect(stdoutOf(after)).toBe('next\nNOISY\n');
    const traced = await h.run('zsh', 'set -x; echo traced');
    expect(stdoutOf(traced)).toBe('traced\n');
    expect(stderrOf(traced)).toBe('+(eval):1> echo traced\n');
    const untraced = await h.run('zsh', 'set +x');
    expect(stdoutOf(untraced)).not.toContain('__oi');
    await h.run('zsh', 'add-zsh-hook -d precmd noisy; add-zsh-hook -d preexec noisy');
  });

  it('never waits on the terminal: rm with a star, spelling correction, stdin', async () => {
    // Options a cell (or the user's .zshrc) sets that would ask a question on the terminal are reset
    // before the next cell.
    await h.run('zsh', 'setopt correct correct_all no_rm_star_silent; mkdir -p scratch && touch scratch/a scratch/b');
    const result = await h.run(
      'zsh',
      ['cd scratch', 'rm *', 'files=(*(N)); echo ${#files} left', 'read -r line || echo "no input"', 'cd ..'].join('\n'),
    );
    expect(result.status, result.forModel).toBe('done');
    expect(stdoutOf(result)).toBe('0 left\nno input\n');
  });

  it.runIf(process.platform === 'linux')('applies the engine limits to the session, like bash', async () => {
    const settings = { memoryMb: 300, cpuSeconds: 1, timeoutMs: 30_000 };
    // zsh's own `ulimit` shows the limits zsh read at start (it caches them); its children get the real ones.
    const probe = "python3 -c 'import resource as r; print(r.getrlimit(r.RLIMIT_DATA)[0] // 2**20, r.getrlimit(r.RLIMIT_CPU)[0])'";
    const [data, cpu] = stdoutOf(await h.run('zsh', probe, { settings }))
      .trim()
      .split(' ')
      .map(Number);
    expect(data).toBe(300);
    // The CPU limit is the session's time so far plus the budget.
    expect(cpu).toBeGreaterThanOrEqual(1);
    const memory = await h.run('zsh', `python3 -c 'a = []\nwhile True: a.append(bytearray(10 ** 7))'`, { settings });
    expect(memory.status).toBe('failed');
    expect(memory.forModel).toContain('MemoryError');
    const burn = await h.run('zsh', `python3 -c 'while True: pass'`, { settings });
    // SIGXCPU: 128 + 24
    expect(burn.exitCode).toBe(152);
    expect(stdoutOf(await h.run('zsh', 'echo fine', { settings }))).toBe('fine\n');
  });

  it('runs in a session of its own, apart from bash', async () => {
    await h.run('zsh', 'only_in_zsh=z');
    await h.run('bash', 'only_in_bash=b');
    expect(stdoutOf(await h.run('zsh', 'echo "[${only_in_bash-}] $only_in_zsh $ZSH_NAME"'))).toBe('[] z zsh\n');
    expect(stdoutOf(await h.run('bash', 'echo "[${only_in_zsh-}] $only_in_bash ${BASH_VERSION:+bash}"'))).toBe('[] b bash\n');
  });

  it("reads the user's .zshenv and .zshrc (from their ZDOTDIR), silences their hooks and strips app keys", async () => {
    const user = await mkdtemp(join(tmpdir(), 'oi-zsh-user-'));
    // Session files in a folder with a space, read under the user's word-splitting options.
    const tmpRoot = join(user, 'session files');
    await mkdir(tmpRoot);
    const other = await startHarness({ baseEnv: { ...envReadingUserRc(), HOME: user, ZDOTDIR: undefined }, tmpRoot });
    try {
      await mkdir(join(user, '.config', 'zsh'), { recursive: true });
      await writeFile(join(user, '.zshenv'), 'export ZDOTDIR="$HOME/.config/zsh"\nexport FROM_ZSHENV=env\n');
      await writeFile(
        join(user, '.config', 'zsh', '.zshrc'),
        [
          'alias ll="echo aliased"',
          'greet() { echo "hi from zshrc" }',
          'chatty() { echo CHATTY; print -n "\\e]0;title\\a" }',
          'autoload -Uz add-zsh-hook; add-zsh-hook precmd chatty; add-zsh-hook preexec chatty',
          'setopt correct prompt_sp sh_word_split ksh_arrays no_unset',
          "PROMPT='%n@%m %~ %# '",
          'export OPENAI_API_KEY=sk-from-zshrc',
          'echo "rc output at start"',
          // Setups that ask at start when on a terminal (as oh-my-zsh's update check), or read stdin,
          // do not hold the start.
          'if [[ -t 1 ]]; then read -q "REPLY?Would you like to update? [Y/n] " && echo updating; fi',
          'read -r answer',
        ].join('\n'),
      );
      const result = await other.run('zsh', 'll; greet; echo "$FROM_ZSHENV ${OPENAI_API_KEY-unset} $ZDOTDIR"; printf partial');
      expect(result.status, result.forModel).toBe('done');
      expect(stdoutOf(result)).toBe(`aliased\nhi from zshrc\nenv unset ${user}/.config/zsh\npartial`);
      const skipped = await other.run('zsh', 'echo "${FROM_ZSHENV-none}"; greet', {
        conversationId: 'no-rc',
        settings: { env: { OI_NO_USER_RC: '1' } },
      });
      expect(stdoutOf(skipped)).toBe('none\n');
      expect(stderrOf(skipped)).toBe('zsh: command not found: greet\n');
    } finally {
      await other.close();
      await rm(user, { recursive: true, force: true });
    }
  });

  it('leaves no ZDOTDIR of ours behind for a zsh the code starts, and cleans up its folders', async () => {
    const other = await startHarness({ baseEnv: { ...process.env, HOME: home, ZDOTDIR: undefined } });
    const result = await other.run('zsh', 'echo "${ZDOTDIR-unset}"; zsh -c \'echo inner $ZSH_VERSION\'');
    expect(stdoutOf(result)).toMatch(/^unset\ninner \d+\.\d+/);
    expect((await readdir(other.tmpRoot)).length).toBeGreaterThan(0);
    await other.service.dispose();
    expect(await readdir(other.tmpRoot)).toEqual([]);
    await other.close();
  });
});
