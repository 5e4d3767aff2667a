import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pty from 'node-pty';
import { sandboxVisibleScratch } from '../../support/sandbox-visible-scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 17, finding 8: TIOCSTI. A program holding a terminal as its controlling terminal can push
// characters into that terminal's input as if they were typed; whatever reads the terminal next — the
// user's shell once the app exits — runs them. Sessions run on a pseudo-terminal of their own, but a
// one-off program the app starts for a sandboxed conversation (asking the workspace's .venv/bin/python
// about itself, an installer) inherited the app's terminal: the terminal `oi` runs in. Held by
// bubblewrap's --new-session for one-offs (sandbox-plan.ts, newSession).
//
// The test holds a real terminal and runs, in it, a shell that starts the engine (terminal-harness.ts)
// and afterwards reads a line as the user's shell would, and runs it. Sandboxed code plants the
// interpreter; the planted program pushes `touch <marker>` into /dev/tty. The marker lies where the
// sandbox cannot write: only the shell outside can create it.

const REPO = resolve(import.meta.dirname, '../../..');
const TSX = pathToFileURL(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const HARNESS = join(import.meta.dirname, 'support', 'terminal-harness.ts');

/** What the kernel says about TIOCSTI: Linux 6.2+ can refuse it to anyone without CAP_SYS_ADMIN. */
function legacyTiocsti(): 'allowed' | 'refused' {
  try {
    return readFileSync('/proc/sys/dev/tty/legacy_tiocsti', 'utf8').trim() === '0' ? 'refused' : 'allowed';
  } catch {
    // No such setting: a kernel before 6.2, where TIOCSTI into one's own terminal always works.
    return 'allowed';
  }
}

interface Outcome {
  output: string;
  exitCode: number;
}

/** The harness in `mode`, in a terminal of its own, followed by a shell reading what was pushed. */
function inTerminal(mode: 'engine' | 'twin', command: string): Promise<Outcome> {
  const harness = [process.execPath, '--import', TSX, HARNESS, mode, command].map(quote).join(' ');
  // `read -t 0`: is a whole line waiting? TIOCSTI is done by the time the harness exits, so this asks
  // about what is already there; it never waits.
  const script = `${harness}; echo "harness exit $?"; if read -r -t 0; then IFS= read -r line; echo "shell read: $line"; eval "$line"; else echo "shell read nothing"; fi`;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('VITEST')) env[k] = v;
  env.TSX_TSCONFIG_PATH = join(REPO, 'tsconfig.test.json');
  const term = pty.spawn('/bin/bash', ['--norc', '--noprofile', '-c', script], { name: 'xterm', cols: 200, rows: 50, cwd: REPO, env });
  let output = '';
  term.onData((data) => (output += data));
  return new Promise((done) => term.onExit(({ exitCode }) => done({ output, exitCode })));
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

describe('sandboxed code cannot type into the terminal the app runs in (issue 17 #8, TIOCSTI)', () => {
  const dir = join(sandboxVisibleScratch() ?? join(REPO, 'test-results'), `tiocsti-${process.pid}`);
  const marker = (name: string): string => join(dir, name);
  const kernel = legacyTiocsti();

  beforeAll(() => mkdirSync(dir, { recursive: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a planted interpreter the engine asks inside the sandbox pushes nothing into the terminal', async () => {
    const { output, exitCode } = await inTerminal('engine', `touch ${quote(marker('engine'))}`);
    expect(exitCode, output).toBe(0);
    expect(output).toContain('second cell 42');
    expect(output).toContain('harness exit 0');
    // The planted program ran (inside) and was refused: no controlling terminal, none on its fds.
    expect(output).toMatch(/refused \/dev\/tty: No such device or address; refused fd 0: .*; refused fd 1: .*; refused fd 2: /);
    expect(output).toContain('shell read nothing');
    expect(existsSync(marker('engine'))).toBe(false);
  });

  it('twin: asked the same way without --new-session, it types a command the shell then runs', async () => {
    const { output, exitCode } = await inTerminal('twin', `touch ${quote(marker('twin'))}`);
    expect(exitCode, output).toBe(0);
    expect(output).toContain('harness exit 0');
    if (kernel === 'allowed') {
      // This kernel lets a process push into its own controlling terminal (dev.tty.legacy_tiocsti = 1).
      expect(output).toContain('pushed via /dev/tty');
      expect(output).toContain(`shell read: touch ${quote(marker('twin'))}`);
      expect(existsSync(marker('twin'))).toBe(true);
    } else {
      // dev.tty.legacy_tiocsti = 0: the kernel refuses TIOCSTI without CAP_SYS_ADMIN, which the
      // sandbox drops; the vector is closed twice over here (docs/sandbox.md says which holds where).
      expect(output).toMatch(/refused \/dev\/tty: (Operation not permitted|Input\/output error)/);
      expect(output).toContain('shell read nothing');
      expect(existsSync(marker('twin'))).toBe(false);
    }
  });
});
