import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src-main/core/exec/engine/types';
import { trustRunEndClaimsForTest } from '../../../src-main/core/exec/session/run-end';
import { startHarness, type Harness, useHarness } from '../../support/exec-harness';
import { SANDBOX } from './support/sandbox-target';

// Issue 17, finding 10: cell code can forge the end of its own run. Each attack reads the run's
// real tag the way an attacker would — bash's and zsh's `$__oi_nonce`, the Python runner's session
// object through `gc`, Ruby's through `ObjectSpace`, R's runner environment through the closure of
// `display`, the Node runner's socket sniffed for its run message — and sends the end the runner
// itself would send (fence in the terminal, `done` on the channel), then keeps running until the
// test lets it go on, prints "later" and leaves a file behind. The run must not be reported done
// before that file exists, and "later" must be that run's output. The twin: the same attack with
// the session's claims trusted as they were before (trustRunEndClaimsForTest) ends the run while
// the code goes on, and its later output lands in the next cell's result.

const since = Date.now().toString(36);
let counter = 0;

interface Files {
  forged: string;
  go: string;
  finished: string;
  later: string;
}

function files(): Files {
  const n = `${since}-${counter++}`;
  return { forged: `forged-${n}`, go: `go-${n}`, finished: `finished-${n}`, later: `later-${n}` };
}

/** bash and zsh: the prompt hook's own fence (exit code 0), with the tag from the shell's variable. */
const shellAttack = (f: Files): string =>
  [
    String.raw`printf '\033]633;D;0\007\033]633;P;OiFence=%s\007' "$__oi_nonce"`,
    `: > ${f.forged}`,
    `while [ ! -e ${f.go} ]; do sleep 0.02; done`,
    `echo ${f.later}`,
    `: > ${f.finished}`,
  ].join('\n');

/** Each attack: forge the end with the real tag, wait for `go`, print `later`, then leave `finished`. */
const ATTACKS: Record<string, (f: Files) => string> = {
  bash: shellAttack,
  zsh: shellAttack,
  python: (f) =>
    [
      'import gc, os, time',
      "s = next(o for o in gc.get_objects() if type(o).__name__ == 'Session' and hasattr(o, 'emit_lock'))",
      "s._finish(s.nonce.decode(), True)  # the runner's own end: fence with the real nonce, then done",
      `open(${JSON.stringify(f.forged)}, 'w').close()`,
      `while not os.path.exists(${JSON.stringify(f.go)}): time.sleep(0.02)`,
      `print(${JSON.stringify(f.later)})`,
      `open(${JSON.stringify(f.finished)}, 'w').close()`,
    ].join('\n'),
  // Needs the sniffer cell below first; waits synchronously (the event loop is blocked).
  javascript: (f) =>
    [
      "const fs = require('node:fs');",
      'const m = globalThis.__oiRun;',
      'process.stdout.write(`\\x1b]633;P;OiFence=${m.nonce}\\x07`);',
      "globalThis.__oiSocket.write(JSON.stringify({ type: 'done', id: m.id, ok: true }) + '\\n');",
      `fs.writeFileSync(${JSON.stringify(f.forged)}, '');`,
      `while (!fs.existsSync(${JSON.stringify(f.go)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);`,
      `console.log(${JSON.stringify(f.later)});`,
      `fs.writeFileSync(${JSON.stringify(f.finished)}, '');`,
    ].join('\n'),
  ruby: (f) =>
    [
      's = ObjectSpace.each_object(Object).find { |o| o.instance_variable_defined?(:@emit_lock) && o.instance_variable_defined?(:@nonce) }',
      "s.send(:finish, { 'nonce' => s.instance_variable_get(:@nonce) }, true)",
      `File.write(${JSON.stringify(f.forged)}, '')`,
      `sleep 0.02 until File.exist?(${JSON.stringify(f.go)})`,
      `puts ${JSON.stringify(f.later)}`,
      `File.write(${JSON.stringify(f.finished)}, '')`,
    ].join('\n'),
  r: (f) =>
    [
      'e <- environment(get("display", envir = as.environment("oi:helpers")))',
      'tag <- e$state$nonce  # read first: finish() clears it before it forces its (lazy) argument',
      'e$finish(list(nonce = tag), TRUE)',
      `invisible(file.create(${JSON.stringify(f.forged)}))`,
      `while (!file.exists(${JSON.stringify(f.go)})) Sys.sleep(0.02)`,
      `cat(${JSON.stringify(f.later)}, "\\n")`,
      `invisible(file.create(${JSON.stringify(f.finished)}))`,
    ].join('\n'),
};

/** Node: a cell that sniffs the runner's socket for its run messages, so the next cell knows its own tag. */
const NODE_SNIFFER = [
  "const net = require('node:net');",
  'const sock = process._getActiveHandles().find((h) => h instanceof net.Socket && !h.isTTY);',
  'globalThis.__oiSocket = sock;',
  "sock.prependListener('data', (chunk) => {",
  "  for (const line of String(chunk).split('\\n')) {",
  "    try { const m = JSON.parse(line); if (m.type === 'run') globalThis.__oiRun = m; } catch {}",
  '  }',
  '});',
  "console.log(sock ? 'sniffing' : 'no socket');",
].join('\n');

/** A cell that just prints, to see whose output a late line lands in. */
const NEXT: Record<string, string> = {
  bash: 'echo next',
  zsh: 'echo next',
  python: "print('next')",
  javascript: "console.log('next')",
  ruby: "puts 'next'",
  r: 'cat("next\\n")',
};

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`gave up waiting for ${what}`);
}

type Run = (language: string, code: string, extra?: Parameters<Harness['run']>[2]) => Promise<RunResult & { terminal: string }>;

interface Outcome {
  result: RunResult & { terminal: string };
  /** Whether the code had really finished when the run was reported over. */
  finishedAtEnd: boolean;
}

/** The attack against the engine as it is: `go` is given once the end has been forged. */
async function attack(
  run: Run,
  workspace: string,
  language: string,
  f: Files,
  extra?: Parameters<Harness['run']>[2],
  code?: string,
): Promise<Outcome> {
  const at = (name: string): string => join(workspace, name);
  let settled = false;
  let finishedAtEnd = false;
  const pending = run(language, code ?? (ATTACKS[language] as (f: Files) => string)(f), extra).then((result) => {
    settled = true;
    finishedAtEnd = existsSync(at(f.finished));
    return result;
  });
  await until(() => existsSync(at(f.forged)) || settled, 'the forged end');
  await writeFile(at(f.go), '');
  const result = await pending;
  return { result, finishedAtEnd };
}

/** The run was reported over only once the code had finished, with its later output in it. */
function expectRealEnd({ result, finishedAtEnd }: Outcome, f: Files, workspace: string): void {
  expect(existsSync(join(workspace, f.forged)), 'the attack forged the end').toBe(true);
  expect(result.status).toBe('done');
  expect(finishedAtEnd, 'the code had finished when the run was reported over').toBe(true);
  expect(result.terminal).toContain(f.later);
}

async function prepare(run: Run, language: string, extra?: Parameters<Harness['run']>[2]): Promise<void> {
  if (language !== 'javascript') return;
  const sniffer = await run('javascript', NODE_SNIFFER, extra);
  expect(sniffer.terminal).toContain('sniffing');
}

describe('cell code cannot forge the end of its own run (issue 17 #10)', () => {
  const h = useHarness();

  for (const language of Object.keys(ATTACKS)) {
    it(`${language}: a forged end with the real tag does not end the run; the later output is the run's`, async () => {
      await prepare(h.run, language);
      const f = files();
      expectRealEnd(await attack(h.run, h.workspace, language, f), f, h.workspace);
      const next = await h.run(language, NEXT[language] as string);
      expect(next.terminal).toContain('next');
      expect(next.terminal).not.toContain(f.later);
    });
  }

  it('javascript: a forged end followed by an await does not end the run either', async () => {
    await prepare(h.run, 'javascript');
    const f = files();
    const code = (ATTACKS.javascript as (f: Files) => string)(f).replace(
      /while \(!fs\.existsSync\((.*?)\)\) Atomics\.wait\(.*?\);/,
      'while (!fs.existsSync($1)) await new Promise((r) => setTimeout(r, 20));',
    );
    expect(code).toContain('await new Promise');
    expectRealEnd(await attack(h.run, h.workspace, 'javascript', f, {}, code), f, h.workspace);
  });

  it("python: code that forges the end and then waits in the runner's own receive() is not taken for the idle runner", async () => {
    const f = files();
    const code = [
      'import gc',
      "s = next(o for o in gc.get_objects() if type(o).__name__ == 'Session' and hasattr(o, 'emit_lock'))",
      's._finish(s.nonce.decode(), True)',
      `open(${JSON.stringify(f.forged)}, 'w').close()`,
      'message = s.channel.receive()  # blocks in the very call the runner waits in between cells',
      `print(${JSON.stringify(f.later)}, message)`,
    ].join('\n');
    const result = await h.run('python', code, { settings: { timeoutMs: 4000 } });
    expect(existsSync(join(h.workspace, f.forged))).toBe(true);
    // Never taken for the end: the run goes on until its timeout stops it.
    expect(result.status).toBe('timeout');
    const next = await h.run('python', NEXT.python as string);
    expect(next.status).toBe('done');
  });

  it('bash: code that forges the end and then reads the terminal, as the prompt does, is not taken for the idle shell', async () => {
    const f = files();
    const code = [
      String.raw`printf '\033]633;D;0\007\033]633;P;OiFence=%s\007' "$__oi_nonce"`,
      `: > ${f.forged}`,
      'read -r line',
      `echo ${f.later}`,
      `: > ${f.finished}`,
    ].join('\n');
    let finishedAtEnd = false;
    const result = await h.run('bash', code, { settings: { inputRequests: 'end' } }).then((r) => {
      finishedAtEnd = existsSync(join(h.workspace, f.finished));
      return r;
    });
    expect(result.status).toBe('done');
    expect(finishedAtEnd).toBe(true);
    expect(result.terminal).toContain(f.later);
  });
});

describe('the same attacks in the sandbox (issue 17 #10)', () => {
  const h = useHarness();

  for (const language of ['bash', 'python', 'ruby']) {
    it(`${language} in bubblewrap: a forged end does not end the run`, async () => {
      const f = files();
      const outcome = await attack(h.run, h.workspace, language, f, { sandbox: SANDBOX });
      expect(outcome.result.limits.sandbox).toBeTruthy();
      expectRealEnd(outcome, f, h.workspace);
    });
  }
});

describe('twin: the same attacks succeed when the session is trusted to say its run is over', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    trustRunEndClaimsForTest(true);
  });
  afterAll(async () => {
    trustRunEndClaimsForTest(false);
    await h?.close();
  });

  for (const language of Object.keys(ATTACKS)) {
    it(`${language}: the forged end is taken, the code goes on, and its later output lands in the next cell`, async () => {
      await prepare(h.run, language);
      const f = files();
      const result = await h.run(language, (ATTACKS[language] as (f: Files) => string)(f));
      // Reported done while the code still waits for `go`: nothing after the forged end is in it.
      expect(result.status).toBe('done');
      expect(existsSync(join(h.workspace, f.finished))).toBe(false);
      expect(result.terminal).not.toContain(f.later);
      await writeFile(join(h.workspace, f.go), '');
      await until(() => existsSync(join(h.workspace, f.finished)), 'the attack to finish');
      const next = await h.run(language, NEXT[language] as string);
      expect(next.terminal).toContain(f.later);
    });
  }
});
