import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputAnswer, InputQuestion } from '../../../src-main/core/exec/input/input-types';
import { installed } from '../../support/installed';
import { stderrOf, stdoutOf, streamTextOf, useHarness } from '../../support/exec-harness';

// A shell's `read -p` writes its prompt to stderr, which a shell cell keeps on a terminal of its own
// (docs/exec.md#output): those checks look at each stream, since the two are read apart.

// Programs that ask for input (docs/exec.md#input), in every persistent language and the shell,
// through the real engine: with nobody to answer, each gets end-of-input at once and the model is
// told; with a person, the question reaches them (prompt, password flag) and the program goes on
// with the answer.

const SLOW = 60_000;
/** A run timeout far above the test's own: a run that ended is evidence it did not wait for it. */
const LONG_TIMEOUT = { timeoutMs: 120_000 };

/** A person who answers every question with `answer` (a password with `secret`) and notes what was asked. */
function person(answer = 'Alice', secret = 's3cret-pw') {
  const asked: InputQuestion[] = [];
  return {
    asked,
    onInput: async (question: InputQuestion): Promise<InputAnswer> => {
      asked.push(question);
      return { kind: 'line', text: question.password ? secret : answer };
    },
  };
}

describe('input requests with nobody to answer', () => {
  const h = useHarness();

  it("Python's input() raises EOFError at once, and the model is told what was asked and why", { timeout: SLOW }, async () => {
    const result = await h.run('python', 'name = input("Your name? ")\nprint("hello", name)', { settings: LONG_TIMEOUT });
    expect(result.status).toBe('failed');
    expect(result.terminal).toContain('Your name? ');
    expect(result.forModel).toContain('EOFError');
    expect(result.forModel).toContain("The program asked for input ('Your name?'); no one can type here, so it got end-of-input");
    expect(result.forModel).toContain('pass values as arguments');
  });

  it('getpass, sys.stdin and reads of fd 0 get end-of-input too', { timeout: SLOW }, async () => {
    const secret = await h.run('python', 'import getpass\ngetpass.getpass("Key: ")', { settings: LONG_TIMEOUT });
    expect(secret.status).toBe('failed');
    expect(secret.forModel).toContain("asked for a password ('Key:')");
    const lines = await h.run('python', 'import sys\nprint(repr(sys.stdin.read()))', { settings: LONG_TIMEOUT });
    expect(lines.status).toBe('done');
    expect(stdoutOf(lines)).toBe("''\n");
    expect(lines.forModel).toContain('asked for input; no one can type here');
    const raw = await h.run('python', 'import os\nprint(os.read(0, 100))', { settings: LONG_TIMEOUT });
    expect(stdoutOf(raw)).toBe("b''\n");
    expect(raw.forModel).toContain('The program python3, waiting at the terminal, asked for input');
  });

  it("the shell's read, a program reading /dev/tty without echo and a REPL end at once", { timeout: SLOW }, async () => {
    const read = await h.run('bash', 'read -r -p "Continue? [y/N] " answer || echo "no input"', { settings: LONG_TIMEOUT });
    expect(read.status).toBe('done');
    expect(stderrOf(read)).toBe('Continue? [y/N] ');
    expect(stdoutOf(read)).toBe('no input\n');
    expect(read.forModel).toContain("The program bash, waiting at the terminal, asked for input ('Continue? [y/N]'); no one can type here");
    const tty = await h.run('bash', `python3 -c 'import getpass; getpass.getpass("Passphrase: ")'`, { settings: LONG_TIMEOUT });
    expect(tty.status).toBe('failed');
    expect(tty.forModel).toContain("asked for a password ('Passphrase:')");
    const repl = await h.run('bash', 'python3 -q; echo "repl ended"', { settings: LONG_TIMEOUT });
    expect(repl.status).toBe('done');
    expect(stdoutOf(repl)).toContain('repl ended');
    const after = await h.run('bash', 'echo still here');
    expect(stdoutOf(after)).toBe('still here\n');
  });

  it('stops a full-screen program waiting for keys and keeps the shell', { timeout: SLOW }, async () => {
    writeFileSync(join(h.workspace, 'notes.txt'), 'hello\n');
    await h.run('bash', 'kept=yes');
    const result = await h.run('bash', 'vi -u NONE notes.txt', { settings: LONG_TIMEOUT });
    expect(result.status).toBe('failed');
    expect(result.forModel).toContain('The program vi kept waiting for keys at the terminal; no one can type here, so the run was stopped');
    const after = await h.run('bash', 'echo $kept');
    expect(stdoutOf(after)).toBe('yes\n');
  });

  it("Node's readline question fails with EndOfInput instead of hanging", { timeout: SLOW }, async () => {
    const code = [
      'const rl = require("readline").createInterface({ input: process.stdin, output: process.stdout });',
      'const answer = await new Promise((resolve) => rl.question("Name? ", resolve));',
      'console.log("got", answer);',
    ].join('\n');
    const result = await h.run('javascript', code, { settings: LONG_TIMEOUT });
    expect(result.status).toBe('failed');
    expect(result.forModel).toContain('EndOfInput');
    expect(result.forModel).toContain("The program asked for input ('Name?'); no one can type here");
    const next = await h.run(
      'javascript',
      'let lines = []; for await (const l of require("readline").createInterface({ input: process.stdin })) lines.push(l); lines.length',
    );
    expect(next.status).toBe('done');
  });
});

describe('input requests answered by a person', () => {
  const h = useHarness();

  const cases: Array<{ language: string; code: string; prompt: string; shows: string }> = [
    {
      language: 'python',
      code: 'name = input("Your name? ")\nprint("hello", name)',
      prompt: 'Your name? ',
      shows: 'Your name? Alice\nhello Alice\n',
    },
    {
      language: 'python',
      code: 'import sys\nprint("Name:", end=" ")\nline = sys.stdin.readline()\nprint("hello", line.strip())',
      prompt: 'Name: ',
      shows: 'Name: Alice\nhello Alice\n',
    },
    {
      language: 'javascript',
      code: 'const rl = require("readline/promises").createInterface({ input: process.stdin, output: process.stdout });\nconst name = await rl.question("Your name? ");\nrl.close();\nconsole.log("hello", name);',
      prompt: 'Your name? ',
      shows: 'hello Alice\n',
    },
    { language: 'bash', code: 'read -r -p "Your name? " name; echo "hello $name"', prompt: 'Your name? ', shows: 'Alice\nhello Alice\n' },
    ...(installed('zsh')
      ? [{ language: 'zsh', code: 'read -r "name?Your name? "; echo "hello $name"', prompt: 'Your name? ', shows: 'Alice\nhello Alice\n' }]
      : []),
    ...(installed('ruby')
      ? [
          {
            language: 'ruby',
            code: 'print "Your name? "\nname = gets.chomp\nputs "hello #{name}"',
            prompt: 'Your name? ',
            shows: 'Your name? Alice\nhello Alice\n',
          },
        ]
      : []),
    ...(installed('Rscript')
      ? [
          {
            language: 'r',
            code: 'name <- readline("Your name? ")\ncat("hello", name, "\\n")',
            prompt: 'Your name? ',
            shows: 'Your name? Alice\nhello Alice \n',
          },
          {
            language: 'r',
            code: 'cat("Your name? ")\nname <- readLines("stdin", n = 1)\ncat("hello", name, "\\n")',
            prompt: 'Your name? ',
            shows: 'Your name? Alice\nhello Alice \n',
          },
        ]
      : []),
    {
      language: 'python',
      code: 'import subprocess\nsubprocess.run(["bash", "-c", "read -p \'Your name? \' n; echo hello $n"])',
      prompt: 'Your name? ',
      shows: 'Alice\nhello Alice\n',
    },
  ];
  for (const c of cases) {
    it(`${c.language}: ${c.code.split('\n')[0]}`, { timeout: SLOW }, async () => {
      const p = person();
      const result = await h.run(c.language, c.code, { onInput: p.onInput, settings: LONG_TIMEOUT });
      expect(result.status, result.forModel).toBe('done');
      expect(p.asked).toHaveLength(1);
      expect(p.asked[0]).toMatchObject({ prompt: c.prompt, password: false, mode: 'line' });
      expect(streamTextOf(result)).toContain(c.shows);
      expect(result.forModel).toContain('; the user typed an answer.');
    });
  }

  it('passwords: flagged, never echoed, and the model learns only that one was entered', { timeout: SLOW }, async () => {
    const pythonPerson = person();
    const python = await h.run('python', 'import getpass\npw = getpass.getpass("Password: ")\nprint(len(pw))', {
      onInput: pythonPerson.onInput,
    });
    expect(pythonPerson.asked[0]).toMatchObject({ prompt: 'Password: ', password: true, from: 'runner' });
    expect(stdoutOf(python)).toBe('Password: \n9\n');
    const shellPerson = person();
    const shell = await h.run('bash', 'read -r -s -p "Password: " pw; echo; echo "${#pw} characters"', { onInput: shellPerson.onInput });
    expect(shellPerson.asked[0]).toMatchObject({ prompt: 'Password: ', password: true, from: 'terminal', command: 'bash' });
    expect(stderrOf(shell)).toBe('Password: ');
    expect(stdoutOf(shell)).toBe('\n9 characters\n');
    for (const result of [python, shell]) {
      expect(result.terminal).not.toContain('s3cret-pw');
      expect(JSON.stringify(result.outputs)).not.toContain('s3cret-pw');
      expect(result.forModel).not.toContain('s3cret-pw');
      expect(result.forModel).toContain("asked for a password ('Password:'); the user entered it (not shown)");
    }
  });

  it('the run timeout is paused while the person thinks', { timeout: SLOW }, async () => {
    const result = await h.run('python', 'print(input("Slow? "))', {
      settings: { timeoutMs: 1000 },
      // Answers only after twice the run's timeout: counted as run time, the run would have timed out.
      onInput: () => new Promise((resolve) => setTimeout(() => resolve({ kind: 'line', text: 'took my time' }), 2000)),
    });
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('Slow? took my time\ntook my time\n');
  });

  it('a question nobody answers within the input-wait limit gets end-of-input', { timeout: SLOW }, async () => {
    const result = await h.run('bash', 'read -r -p "Still there? " x || echo gave up', {
      settings: { timeoutMs: 120_000, inputWaitMs: 1000 },
      onInput: (_question, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve({ kind: 'line', text: 'too late' }))),
    });
    expect(stderrOf(result)).toBe('Still there? ');
    expect(stdoutOf(result)).toBe('gave up\n');
    expect(result.forModel).toContain("asked for input ('Still there?'); no answer came within 1 s, so it got end-of-input");
  });

  it('the person can end the input, or type into the terminal instead of answering', { timeout: SLOW }, async () => {
    const ended = await h.run('python', 'import sys\nprint(len(sys.stdin.readlines()), "lines")', {
      onInput: async (): Promise<InputAnswer> => ({ kind: 'eof' }),
    });
    expect(stdoutOf(ended)).toBe('0 lines\n');
    expect(ended.forModel).toContain('the user ended the input (end-of-input)');
    let withdrawn = false;
    const typed = await h.run('bash', 'read -r -n 1 -p "Press a key: " key; echo; echo "key=$key"', {
      runId: 'typed-run',
      onInput: (_question, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolve({ kind: 'eof' });
          });
          // The person types into the live terminal rather than the question's field.
          expect(h.service.typeInto('conv-1', 'typed-run', 'k')).toBe(true);
        }),
    });
    expect(withdrawn).toBe(true);
    expect(stderrOf(typed)).toBe('Press a key: ');
    expect(stdoutOf(typed)).toBe('k\nkey=k\n');
    expect(h.service.typeInto('conv-1', 'typed-run', 'x')).toBe(false);
  });
});

describe('sudo', () => {
  const h = useHarness();

  it('asks for its password, and forgets it after the run so later cells cannot use it unasked', { timeout: SLOW }, async () => {
    // A stand-in sudo on PATH (a real one would not ask root, nor a user without a sudoers entry):
    // it reads the password from the terminal with echo off as sudo does, and logs a `sudo -K`.
    const bin = join(h.workspace, 'fake-bin');
    const log = join(h.workspace, 'sudo.log');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'sudo'),
      `#!/bin/bash\nif [ "$1" = "-K" ]; then echo "credentials removed" >> ${JSON.stringify(log)}; exit 0; fi\nread -r -s -p "[sudo] password for ann: " pw </dev/tty; echo\necho "ran $* with a \${#pw}-character password"\n`,
      { mode: 0o755 },
    );
    const p = person();
    const result = await h.run('bash', 'sudo apt-get update', {
      onInput: p.onInput,
      settings: { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } },
    });
    expect(p.asked[0]).toMatchObject({ prompt: '[sudo] password for ann: ', password: true, command: 'sudo' });
    expect(stderrOf(result)).toBe('[sudo] password for ann: ');
    expect(stdoutOf(result)).toBe('\nran apt-get update with a 9-character password\n');
    expect(result.forModel).toContain(
      "The program sudo, waiting at the terminal, asked for a password ('[sudo] password for ann:'); the user entered it (not shown).",
    );
    // The run's sudo asked for the password; its remembered credentials are then forgotten with the
    // system's own `sudo -K` (app-programs.ts), never with a `sudo` the session's PATH names: the
    // stand-in here, like one planted in a workspace folder, is not run for it.
    expect(existsSync(log)).toBe(false);
  });
});
