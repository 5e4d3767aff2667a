import { installed } from './installed';

// How to say the same few things in every language the engine keeps a session for, so that one
// behaviour suite (test/integration/exec/session-behaviour.test.ts) holds them all to the same
// contract. Each entry is code text only; what a language does beyond these lives in its own test file.

export interface PersistentLanguage {
  /** The language name runs use. */
  name: string;
  /** Whether this machine has the runtime (.ci/run installs every one). */
  available: boolean;
  /** Whether sessions need a home of the test's own, so that the developer's rc files play no part. */
  ownHome?: boolean;
  /** Assigns a string to a variable of the session. */
  set(variable: string, value: string): string;
  /** Prints a variable's value and a newline. */
  show(variable: string): string;
  /** Prints `yes` if the variable exists in the session, else `no`. */
  defined(variable: string): string;
  /** Prints a text and a newline to stdout. */
  print(text: string): string;
  /** Writes a text to stdout with nothing after it. */
  write(text: string): string;
  /** Prints a text and a newline to stderr. */
  printError(text: string): string;
  /** Runs `echo <text>` as a child process whose output goes straight to the terminal. */
  child(text: string): string;
  /** Makes folder `sub` in the current folder (if missing) and changes into it. */
  enterSub: string;
  /** Prints the process id of the session. */
  pid: string;
  /** Blocks 30 s (in a way Ctrl-C ends). */
  sleep30: string;
  /** Sleeps a moment (a few hundred ms). */
  nap: string;
  /** Loops forever without output. */
  busyLoop: string;
  /** Loops forever printing `flood 1`, `flood 2`, … */
  flood: string;
  /** Prints `row 0` … `row <n-1>`, one print per line. */
  rows(n: number): string;
  /** Waits until a file exists. */
  waitForFile(path: string): string;
  /** Kills its own process with SIGKILL. */
  killSelf: string;
  /**
   * Fails the run: an uncaught error "bad value" (with the error output it gives) or, in a shell, exit
   * code 3; `trace` is what the model reads of where it was raised (a function `boom` of the cell).
   */
  fail: { code: string; ename?: string; exitCode?: number; trace?: string };
  /** The error output's ename when a run is interrupted (shells give none). */
  interruptEname?: string;
  /** A final expression and the text of its execute_result (shells have none). */
  lastValue?: { code: string; text: string };
  /**
   * Code that ends the session's own process with a code of its choosing, and how the run is reported
   * (where the language has such a way; JavaScript's process.exit() ends the cell, not the session).
   */
  exitSelf?: { code: string; status: 'failed' | 'died'; exitCode: number; says: RegExp };
  /** A shell's: turns the terminal's echo on, and back off (the runner's own setting). */
  echo?: { on: string; off: string };
}

/** A bash/zsh $'…' literal of any text. */
function quoted(text: string): string {
  return `$'${[...text].map((c) => (c === "'" || c === '\\' ? `\\${c}` : c < ' ' || c === '\x7f' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('')}'`;
}

/** A double-quoted string literal every language here reads the same way (JSON escapes; no `#{` or `$`). */
function literal(text: string): string {
  if (/#\{|\$/.test(text)) throw new Error(`text not portable as a literal: ${text}`);
  return JSON.stringify(text);
}

function shell(name: 'bash' | 'zsh'): PersistentLanguage {
  return {
    name,
    available: installed(name),
    ownHome: true,
    set: (v, value) => `${v}=${quoted(value)}`,
    show: (v) => `printf '%s\\n' "$${v}"`,
    defined: (v) => `if [ -n "\${${v}+x}" ]; then echo yes; else echo no; fi`,
    print: (text) => `printf '%s\\n' ${quoted(text)}`,
    write: (text) => `printf '%s' ${quoted(text)}`,
    printError: (text) => `printf '%s\\n' ${quoted(text)} >&2`,
    child: (text) => `/bin/echo ${quoted(text)}`,
    enterSub: 'mkdir -p sub && cd sub',
    pid: 'echo $$',
    sleep30: 'sleep 30',
    nap: 'sleep 0.3',
    busyLoop: 'while true; do :; done',
    flood: 'i=0; while true; do i=$((i + 1)); echo "flood $i"; done',
    rows: (n) => `for ((i = 0; i < ${n}; i++)); do echo "row $i"; done`,
    waitForFile: (path) => `until [ -e ${quoted(path)} ]; do sleep 0.01; done`,
    killSelf: 'kill -9 $$',
    fail: { code: '(exit 3)', exitCode: 3 },
    exitSelf: {
      code: 'exit 4',
      status: 'failed',
      exitCode: 4,
      says: new RegExp(`The ${name === 'bash' ? 'shell' : name} session exited with code 4: state was lost`),
    },
    echo: { on: 'stty echo </dev/tty', off: 'stty -echo </dev/tty' },
  };
}

export const PERSISTENT_LANGUAGES: PersistentLanguage[] = [
  {
    name: 'python',
    available: true,
    set: (v, value) => `${v} = ${literal(value)}`,
    show: (v) => `print(${v})`,
    defined: (v) => `print("yes" if ${literal(v)} in globals() else "no")`,
    print: (text) => `print(${literal(text)})`,
    write: (text) => `import sys\nsys.stdout.write(${literal(text)})`,
    printError: (text) => `import sys\nprint(${literal(text)}, file=sys.stderr)`,
    child: (text) => `import subprocess\nsubprocess.run(["echo", ${literal(text)}])`,
    enterSub: 'import os\nos.makedirs("sub", exist_ok=True)\nos.chdir("sub")',
    pid: 'import os\nprint(os.getpid())',
    sleep30: 'import time\ntime.sleep(30)',
    nap: 'import time\ntime.sleep(0.3)',
    busyLoop: 'while True:\n    pass',
    flood: 'i = 0\nwhile True:\n    i += 1\n    print(f"flood {i}")',
    rows: (n) => `for i in range(${n}):\n    print(f"row {i}")`,
    waitForFile: (path) => `import os, time\nwhile not os.path.exists(${literal(path)}):\n    time.sleep(0.01)`,
    killSelf: 'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)',
    fail: { code: 'def boom():\n    raise ValueError("bad value")\nboom()', ename: 'ValueError', trace: 'boom()' },
    interruptEname: 'KeyboardInterrupt',
    lastValue: { code: '6 * 7', text: '42' },
    exitSelf: {
      code: 'import os\nos._exit(3)',
      status: 'died',
      exitCode: 3,
      says: /The python session died \(exit code 3\): state was lost/,
    },
  },
  {
    name: 'javascript',
    available: true,
    set: (v, value) => `var ${v} = ${literal(value)};`,
    show: (v) => `console.log(${v});`,
    defined: (v) => `console.log(typeof ${v} === "undefined" ? "no" : "yes");`,
    print: (text) => `console.log(${literal(text)});`,
    write: (text) => `process.stdout.write(${literal(text)});`,
    printError: (text) => `console.error(${literal(text)});`,
    child: (text) => `(await import("node:child_process")).execFileSync("echo", [${literal(text)}], { stdio: "inherit" });`,
    enterSub: '(await import("node:fs")).mkdirSync("sub", { recursive: true });\nprocess.chdir("sub");',
    pid: 'console.log(String(process.pid));',
    sleep30: 'await new Promise((resolve) => setTimeout(resolve, 30_000));',
    nap: 'await new Promise((resolve) => setTimeout(resolve, 300));',
    busyLoop: 'while (true) {}',
    flood: 'for (let i = 1; ; i++) console.log(`flood ${i}`);',
    rows: (n) => `for (let i = 0; i < ${n}; i++) console.log("row " + i);`,
    waitForFile: (path) =>
      `const { existsSync } = await import("node:fs");\nwhile (!existsSync(${literal(path)})) await new Promise((resolve) => setTimeout(resolve, 10));`,
    killSelf: 'process.kill(process.pid, "SIGKILL");',
    fail: { code: 'function boom() { throw new TypeError("bad value"); }\nboom();', ename: 'TypeError', trace: 'at boom' },
    lastValue: { code: '6 * 7', text: '42' },
  },
  {
    name: 'ruby',
    available: installed('ruby'),
    set: (v, value) => `${v} = ${literal(value)}`,
    show: (v) => `puts ${v}`,
    defined: (v) => `puts(defined?(${v}) ? "yes" : "no")`,
    print: (text) => `puts ${literal(text)}`,
    write: (text) => `print ${literal(text)}`,
    printError: (text) => `$stderr.puts ${literal(text)}`,
    child: (text) => `system("echo", ${literal(text)})`,
    enterSub: 'Dir.mkdir("sub") unless Dir.exist?("sub")\nDir.chdir("sub")',
    pid: 'puts Process.pid',
    sleep30: 'sleep 30',
    nap: 'sleep 0.3',
    busyLoop: 'loop { }',
    flood: 'i = 0\nloop { puts "flood #{i += 1}" }',
    rows: (n) => `${n}.times { |i| puts "row #{i}" }`,
    waitForFile: (path) => `sleep 0.01 until File.exist?(${literal(path)})`,
    killSelf: "Process.kill('KILL', Process.pid)",
    fail: { code: 'raise ArgumentError, "bad value"', ename: 'ArgumentError' },
    interruptEname: 'Interrupt',
    lastValue: { code: '6 * 7', text: '42' },
  },
  {
    name: 'r',
    available: installed('Rscript'),
    set: (v, value) => `${v} <- ${literal(value)}`,
    show: (v) => `cat(${v}, "\\n", sep = "")`,
    defined: (v) => `cat(if (exists(${literal(v)})) "yes" else "no", "\\n", sep = "")`,
    print: (text) => `cat(${literal(text)}, "\\n", sep = "")`,
    write: (text) => `cat(${literal(text)})`,
    printError: (text) => `message(${literal(text)})`,
    child: (text) => `invisible(system2("echo", ${literal(text)}))`,
    enterSub: 'dir.create("sub", showWarnings = FALSE)\nsetwd("sub")',
    pid: 'cat(Sys.getpid(), "\\n")',
    sleep30: 'Sys.sleep(30)',
    nap: 'Sys.sleep(0.3)',
    busyLoop: 'repeat {}',
    flood: 'i <- 0\nrepeat { i <- i + 1; cat("flood ", i, "\\n", sep = "") }',
    rows: (n) => `for (i in seq_len(${n}) - 1L) cat("row ", i, "\\n", sep = "")`,
    waitForFile: (path) => `while (!file.exists(${literal(path)})) Sys.sleep(0.01)`,
    killSelf: 'tools::pskill(Sys.getpid(), 9)',
    fail: { code: 'stop("bad value")', ename: 'simpleError' },
    interruptEname: 'interrupt',
    lastValue: { code: '6 * 7', text: '[1] 42' },
  },
  shell('bash'),
  shell('zsh'),
];
