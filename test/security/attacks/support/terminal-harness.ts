import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProbe } from '../../../../src-main/core/exec/languages/probing';
import { oneOffSandbox } from '../../../../src-main/core/exec/sandbox/sandbox-wrap';
import { sandboxSupport } from '../../../../src-main/core/exec/sandbox/sandbox-support';
import { plantWith, SANDBOX, startSandboxTarget, stdoutOf } from './sandbox-target';

// The app in a terminal, for terminal-injection.test.ts: run as a script inside a pseudo-terminal the
// test holds, so this process — like `oi` in the user's terminal — has that terminal as its
// controlling terminal, and every program it starts without a terminal of its own inherits it.
//
//   node --import tsx terminal-harness.ts <engine|twin> <command to push>
//
// engine: sandboxed code plants .venv/bin/python (which pushes <command> into /dev/tty with TIOCSTI,
//   then runs Python); the next Python cell makes the engine ask the planted program about itself,
//   inside the sandbox (sandbox-probing.ts), and start a session with it; one more cell pushes from
//   the session itself.
// twin: the same planted program, asked the way the engine asks it (oneOffSandbox + runProbe), but
//   with --new-session taken out of bubblewrap's arguments.
// Prints what the planted program logged, then exits; the shell around it reads what was pushed.

/** Python pushing argv[1] and a newline into the controlling terminal, then fds 0-2; logs to argv[2]. */
const PUSH = [
  'import fcntl, os, sys, termios',
  'def push(fd):',
  '    for b in (sys.argv[1] + "\\n").encode():',
  '        fcntl.ioctl(fd, termios.TIOCSTI, bytes([b]))',
  'results = []',
  'try:',
  '    fd = os.open("/dev/tty", os.O_RDWR)',
  '    push(fd)',
  '    results.append("pushed via /dev/tty")',
  'except OSError as e:',
  '    results.append("refused /dev/tty: " + e.strerror)',
  '    for fd in (0, 1, 2):',
  '        try:',
  '            push(fd)',
  '            results.append("pushed via fd %d" % fd)',
  '            break',
  '        except OSError as e:',
  '            results.append("refused fd %d: %s" % (fd, e.strerror))',
  'with open(sys.argv[2], "a") as log:',
  '    log.write("; ".join(results) + "\\n")',
].join('\n');

function plantedPython(command: string, log: string): string {
  return [
    '#!/bin/sh',
    `/usr/bin/python3 -c ${shellQuote(PUSH)} ${shellQuote(command)} ${shellQuote(log)}`,
    'exec /usr/bin/python3 "$@"',
    '',
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const [mode, command] = process.argv.slice(2);
  if ((mode !== 'engine' && mode !== 'twin') || !command) throw new Error('usage: terminal-harness.ts <engine|twin> <command>');
  const t = await startSandboxTarget();
  const log = join(t.workspace, 'tiocsti.log');
  try {
    const plant = await t.run('plant', 'python', plantWith('.venv/bin/python', plantedPython(command, log)), { sandbox: SANDBOX });
    if (plant.status !== 'done') throw new Error(`planting failed: ${plant.forModel}`);
    if (mode === 'engine') {
      const next = await t.run('victim', 'python', 'print("second cell", 6 * 7)', { sandbox: SANDBOX });
      console.log(`second cell: ${stdoutOf(next).trim()}`);
      const fromSession = await t.run('victim', 'python', `import subprocess\nsubprocess.run([".venv/bin/python", "-c", "pass"])`, {
        sandbox: SANDBOX,
      });
      console.log(`session cell: ${fromSession.status}`);
    } else {
      const support = await sandboxSupport();
      if (!support.available || support.tool !== 'bubblewrap') throw new Error('the twin needs bubblewrap');
      const once = await oneOffSandbox(
        { support, settings: SANDBOX, workspace: t.workspace, tmpRoot: t.tmpRoot, home: t.home },
        { file: join(t.workspace, '.venv/bin/python'), args: ['-I', '-c', 'print(1)'] },
      );
      const args = once.command.args.filter((a) => a !== '--new-session');
      if (args.length !== once.command.args.length - 1) throw new Error('--new-session is not in the one-off arguments');
      const answer = await runProbe(once.command.file, args);
      await once.dispose();
      console.log(`probe answered: ${answer.stdout.trim()}`);
    }
    console.log(`planted program log:\n${await readFile(log, 'utf8').catch(() => '(none)\n')}harness done`);
  } finally {
    await t.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
