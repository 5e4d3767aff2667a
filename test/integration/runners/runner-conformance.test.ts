import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_RUNNER, type Output, PYTHON_RUNNER, type RunOutcome, Runner, type StartOptions, until } from '../../support/runner-harness';

// What every runner (resources/runners/<language>) does the same way, spoken to over its own
// protocol: it says hello, passes a cell's bytes through untouched, cannot be fooled into ending a
// run by what a cell prints, and ends a busy cell on SIGINT keeping its state. One table says how to
// say it in each language, one suite holds them all to it; what a runner does beyond this stays in
// node-runner.test.ts and python-runner.test.ts. The session-level contract, over the engine, is
// test/integration/exec/session-behaviour.test.ts.

const resultText = (o: RunOutcome) => o.outputs.find((x) => x.output_type === 'execute_result')?.data?.['text/plain'];
const errorOf = (o: RunOutcome) => o.outputs.find((x) => x.output_type === 'error') as Required<Output> | undefined;

/** A runner's printed text that looks like the end of a run (the fence and a `done` message) and is not. */
const FAKE_END = '\x1b]633;P;OiFence=0123456789abcdef\x07{"type": "done", "id": "x", "ok": true, "cwd": "/"}';

interface RunnerLanguage {
  name: string;
  start: StartOptions;
  /** The hello's language and version. */
  hello: { language: string; version: RegExp };
  /** Prints a text and a newline (JSON escapes are literals in both languages). */
  print(text: string): string;
  /** Writes a text with nothing after it. */
  write(text: string): string;
  /** Writes bytes 0xff 0xfe 0x0a (invalid UTF-8) to stdout as they are. */
  badBytes: string;
  /** Sets `kept` to the text "still here". */
  keep: string;
  /** Prints `spinning`, then stays busy until interrupted. */
  busy: string;
  /** The error an interrupted cell ends with. */
  interrupted: string;
  /**
   * A printed newline as the terminal gets it: "\r\n" through the pty's output processing, which
   * this harness leaves on (the app starts runners with `stty -opost`); "\n" for a runner that turns
   * it off itself (Python, termios: runner-spawn.ts).
   */
  eol: string;
}

// Debian's interpreter: the python3 first on PATH may not be the one the other Python tests use.
const python = (withIPython: boolean): RunnerLanguage => ({
  name: `python ${withIPython ? 'with' : 'without'} IPython`,
  start: { command: '/usr/bin/python3', args: [PYTHON_RUNNER], env: withIPython ? {} : { OI_IPYTHON: '0' } },
  hello: { language: 'python', version: /^3\.\d+\.\d+$/ },
  print: (text) => `print(${JSON.stringify(text)})`,
  write: (text) => `print(${JSON.stringify(text)}, end="")`,
  badBytes: 'import sys\nsys.stdout.buffer.write(b"\\xff\\xfe\\n")',
  keep: 'kept = "still here"',
  busy: 'import time\nprint("spinning", flush=True)\nwhile True:\n    time.sleep(0.01)',
  interrupted: 'KeyboardInterrupt',
  eol: '\n',
});

const LANGUAGES: RunnerLanguage[] = [
  {
    name: 'javascript',
    start: { command: process.execPath, args: [NODE_RUNNER] },
    hello: { language: 'javascript', version: new RegExp(`^${process.versions.node.replace(/\./g, '\\.')}$`) },
    print: (text) => `console.log(${JSON.stringify(text)})`,
    write: (text) => `process.stdout.write(${JSON.stringify(text)})`,
    badBytes: 'process.stdout.write(Buffer.from([0xff, 0xfe, 0x0a]))',
    keep: 'const kept = "still here"',
    // A synchronous loop: the runner must break into it (vm's breakOnSigint), not wait for the event loop.
    busy: 'console.log("spinning")\nwhile (true) {}',
    interrupted: 'Interrupted',
    eol: '\r\n',
  },
  python(true),
  python(false),
];

describe.each(LANGUAGES)('$name runner', (l) => {
  // One runner for the suite: each case leaves it idle, and the next case's cells prove it still is.
  let runner: Runner;
  let count = 0;
  const run = (code: string) => runner.run(code, { executionCount: ++count });
  beforeAll(async () => {
    runner = await Runner.start(l.start);
  });
  afterAll(async () => {
    await runner?.close();
  });

  it('says hello with its language, version and pid', () => {
    expect(runner.hello).toMatchObject({ type: 'hello', language: l.hello.language, pid: runner.pid });
    expect(runner.hello.version).toMatch(l.hello.version);
  });

  it('passes Unicode and invalid UTF-8 through to the terminal byte for byte', async () => {
    const o = await run([l.print('héllo ✓ 😀'), l.badBytes, l.print('after')].join('\n'));
    const eol = Buffer.from(l.eol);
    const expected = Buffer.concat([Buffer.from('héllo ✓ 😀'), eol, Buffer.from([0xff, 0xfe]), eol, Buffer.from('after'), eol]);
    expect(o.bytes.equals(expected), JSON.stringify(o.bytes.toString('latin1'))).toBe(true);
  });

  it('is not fooled by a cell printing a fake fence, protocol JSON or no final newline', async () => {
    const o = await run(`${l.print(FAKE_END)}\n${l.write('no newline')}`);
    expect(o.ok).toBe(true);
    expect(o.text).toBe(`${FAKE_END}\nno newline`);
    expect((await run(l.print('next'))).text).toBe('next\n');
  });

  it('interrupts a busy cell on SIGINT and keeps its state', async () => {
    await run(l.keep);
    const running = run(l.busy);
    await until(() => runner.unclaimedText.includes('spinning'));
    runner.interrupt();
    const o = await running;
    expect(o.ok).toBe(false);
    expect(errorOf(o)!.ename).toBe(l.interrupted);
    expect(resultText(await run('kept'))).toBe("'still here'");
  });
});
