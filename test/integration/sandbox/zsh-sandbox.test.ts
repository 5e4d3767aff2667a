import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { type Harness, interruptOnceShown, type RunExtra, startHarness, streamTextOf as stdout } from '../../support/exec-harness';
import { sandboxTestHome } from '../../support/sandbox-visible-scratch';
import { installed } from '../../support/installed';
import { envReadingUserRc } from '../../support/user-rc';

// A zsh session under bubblewrap, set up as sandbox.test.ts sets up its bash and Python ones: a home
// of the test's own outside /tmp, holding a fake ~/.ssh key, a .zshrc and the workspace.

const SANDBOX: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe.runIf(installed('zsh') && installed('bwrap'))('sandboxed zsh sessions (bubblewrap)', () => {
  let home: string;
  let workspace: string;
  let h: Harness;

  const run = (code: string, extra: RunExtra = {}) => h.run('zsh', code, extra);

  beforeAll(async () => {
    ({ home, workspace } = await sandboxTestHome('zsh-sandbox-home-'));
    await writeFile(join(home, '.zshrc'), 'from_user_rc() { echo "read the home" }\n');
    h = await startHarness({
      // The rc files read as outside the tests (OI_NO_USER_RC is the suite's): "no user rc" below is the sandbox's doing.
      baseEnv: envReadingUserRc(),
      workspace,
      settings: { env: { HOME: home } },
      request: { conversationId: 'zsh-sandboxed', sandbox: SANDBOX },
    });
  });

  afterAll(async () => {
    await h?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('writes inside the workspace and nowhere else, and cannot read the home', async () => {
    const targets = [join(home, 'outside.txt'), '/etc/oi-zsh-sandbox-test', '/usr/oi-zsh-sandbox-test'];
    const code = [
      'print -r -- ok > inside.txt',
      `for target in ${targets.map((t) => JSON.stringify(t)).join(' ')}; do`,
      '  if { print -r -- escaped > $target } 2>/dev/null; then echo "WROTE $target"; else echo refused; fi',
      'done',
      `cat ${JSON.stringify(join(home, '.ssh', 'id_ed25519'))} 2>/dev/null || echo hidden`,
      '(( $+functions[from_user_rc] )) || echo "no user rc"',
      'echo $ZSH_NAME',
    ].join('\n');
    const result = await run(code);
    expect(result.status, result.forModel).toBe('done');
    expect(stdout(result)).toBe('refused\nrefused\nrefused\nhidden\nno user rc\nzsh\n');
    expect(result.limits.sandbox).toMatch(/^bubblewrap: /);
    expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('ok\n');
    await expect(readFile(join(home, 'outside.txt'))).rejects.toThrow();
  });

  it('keeps state, runs in its own process namespace, and can be interrupted', async () => {
    await run('cd /usr && export GREETING=hi; arr=(a b c)');
    const state = await run('echo "$GREETING $(pwd) ${(j:-:)arr}"; (( $$ < 10 )) && echo "own namespace"');
    expect(stdout(state)).toBe('hi /usr a-b-c\nown namespace\n');
    const sleeping = await run('echo started; sleep 30', interruptOnceShown('started'));
    expect(sleeping.status).toBe('interrupted');
    expect(sleeping.forModel).toContain('keeps its state');
    expect(stdout(await run('echo still $GREETING'))).toBe('still hi\n');
  });
});
