import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty, { type IPty } from 'node-pty';
import { Terminal } from '@xterm/headless';
import { REPO } from './built-output';
import { endWithTest } from './test-children';

export { REPO };
import { OI } from './oi-command';
export { OI };

/** The folder oi starts in unless a test names one: `here/` beside the test's data folder, never the repository. */
function defaultCwd(env: Record<string, string>): string {
  const dir = path.join(env.OI_DATA_DIR ?? os.tmpdir(), 'here');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The environment `oi` runs with in tests: its own data folder, keys from the environment only. */
export function cliEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('VITEST') && !k.endsWith('_API_KEY')) env[k] = v;
  return {
    ...env,
    TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json'),
    OI_DATA_DIR: dataDir,
    OI_NO_KEYCHAIN: '1',
    // Shell cells' bash and zsh skip the contributor's own rc file (resources/shell/oi-rc.bash): on
    // these machines ~/.bashrc runs `pyenv init` and `pyenv virtualenv-init`, ~300 processes and about
    // 1.6 CPU-seconds per shell session (and a pyenv hook after every cell), and what it sets up is
    // the machine's, not the test's. No test that runs with this environment is about the person's rc
    // file (test/security/attacks/key-exposure.test.ts gives its app a .bashrc of its own).
    OI_NO_USER_RC: '1',
    NO_COLOR: '1',
    OPENAI_API_KEY: 'sk-test-cli',
    ANTHROPIC_API_KEY: 'sk-ant-test-cli',
    ...extra,
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunOptions {
  /** What standard input carries (a pipe); default: nothing (closed at once). */
  stdin?: string;
  /** The folder oi starts in (where code runs by default); default: `here/` beside the data folder. */
  cwd?: string;
  /** Told oi's process id as soon as it starts. */
  started?: (pid: number) => void;
}

/**
 * Runs `oi <args>` to completion without a terminal (stdin and stdout are pipes). oi runs in a process
 * group of its own, ended with everything in it when the test finishes, however it finishes.
 */
export function runOi(
  args: string[],
  env: Record<string, string>,
  options: RunOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // spawn, not execFile: execFile does not pass `detached` on.
    const child = spawn(process.execPath, [...OI, ...args], { cwd: options.cwd ?? defaultCwd(env), env, detached: true });
    endWithTest(child, { group: true });
    if (child.pid !== undefined) options.started?.(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const text = (parts: Buffer[]) => Buffer.concat(parts).toString('utf8');
    child.on('error', (e) => resolve({ code: 1, stdout: text(out), stderr: `${text(err)}${e.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: text(out), stderr: text(err) }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

// CSI sequences and OSC titles, so tests match the text a person reads.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

export interface OiTerminalOptions {
  cwd?: string;
  cols?: number;
  rows?: number;
  /** Text piped into oi's standard input (`git diff | oi "review this"`); the terminal is still there. */
  piped?: string;
}

/** `oi` in a pseudo-terminal, as a person would use it. */
export class OiTerminal {
  private readonly proc: IPty;
  private text = '';
  private rawText = '';
  private mark = 0;
  private readonly waiters = new Set<() => void>();
  /** A terminal emulator fed the same bytes: what the person would see on the screen. */
  private readonly screenEmulator: Terminal;
  readonly exited: Promise<number>;
  /** The signal that ended oi, if one did (a crash would show here as SIGABRT or SIGSEGV). */
  signal: number | null = null;

  constructor(args: string[], env: Record<string, string>, options: OiTerminalOptions = {}) {
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    // reflowCursorLine: as tmux, VTE (GNOME Terminal…), kitty, iTerm2 and Windows Terminal do, a resize
    // rewraps the line the cursor is on too (xterm.js leaves it as drawn unless told to).
    this.screenEmulator = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true, reflowCursorLine: true });
    const oi = [process.execPath, ...OI, ...args];
    // Piped: a shell's pipeline in the terminal, so oi's stdin is a pipe and the pty stays its controlling terminal.
    const [file, argv] =
      options.piped === undefined ? [oi[0] ?? '', oi.slice(1)] : ['/bin/sh', ['-c', 'printf %s "$OI_TEST_PIPED" | "$@"', 'sh', ...oi]];
    this.proc = pty.spawn(file, argv, {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd ?? defaultCwd(env),
      env: options.piped === undefined ? env : { ...env, OI_TEST_PIPED: options.piped },
    });
    // A pty's process leads its own session (and process group): ended with it at the test's end.
    endWithTest(this.proc, { group: true, exited: (listener) => this.proc.onExit(listener) });
    this.proc.onData((data) => {
      this.rawText += data;
      this.screenEmulator.write(data);
      this.text += data.replace(ANSI, '');
      for (const wake of [...this.waiters]) wake();
    });
    this.exited = new Promise((resolve) =>
      this.proc.onExit(({ exitCode, signal }) => {
        this.signal = signal || null;
        resolve(exitCode);
      }),
    );
  }

  /** Everything printed so far (escape sequences removed). */
  get output(): string {
    return this.text;
  }

  /** Everything printed so far, byte for byte. */
  get raw(): string {
    return this.rawText;
  }

  /** The screen as the person sees it now (scrollback included), one string per row, right-trimmed. */
  async screen(): Promise<string[]> {
    await new Promise<void>((resolve) => this.screenEmulator.write('', resolve));
    const buffer = this.screenEmulator.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < buffer.length; i++) rows.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows;
  }

  /** The row the cursor is on, as the person sees it. */
  async cursorRow(): Promise<string> {
    await new Promise<void>((resolve) => this.screenEmulator.write('', resolve));
    const buffer = this.screenEmulator.buffer.active;
    return buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(true) ?? '';
  }

  /** Resizes the terminal once the emulator has drawn every byte it got, as a terminal does (xterm.js parses later). */
  async resize(cols: number, rows: number): Promise<void> {
    await new Promise<void>((resolve) => this.screenEmulator.write('', resolve));
    this.proc.resize(cols, rows);
    this.screenEmulator.resize(cols, rows);
  }

  /** Closes the terminal under oi, as closing its window does: the pty goes away, then SIGHUP. */
  hangUp(): void {
    (this.proc as IPty & { destroy(): void }).destroy();
  }

  /** Text pasted with the terminal's bracketed-paste markers (newlines sent as CR, as terminals do). */
  paste(text: string): void {
    this.proc.write(`\x1b[200~${text.replace(/\n/g, '\r')}\x1b[201~`);
  }

  /** Waits until text printed after the previous expect matches, and moves past it. */
  expect(pattern: RegExp | string, timeoutMs = 25_000): Promise<string> {
    return new Promise((resolve, reject) => {
      // Not a timing assertion: a bound so a missing line fails with what was printed instead.
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`oi did not print ${String(pattern)}; after the last match it printed:\n${this.text.slice(this.mark)}`));
      }, timeoutMs);
      const check = () => {
        const rest = this.text.slice(this.mark);
        const m =
          typeof pattern === 'string' ? (rest.includes(pattern) ? { index: rest.indexOf(pattern), 0: pattern } : null) : pattern.exec(rest);
        if (m) {
          clearTimeout(timer);
          this.waiters.delete(check);
          this.mark += (m.index ?? 0) + m[0].length;
          resolve(m[0]);
        }
      };
      this.waiters.add(check);
      void this.exited.then(() => {
        if (this.waiters.has(check)) {
          clearTimeout(timer);
          this.waiters.delete(check);
          reject(new Error(`oi exited before printing ${String(pattern)}; it printed:\n${this.text.slice(this.mark)}`));
        }
      });
      check();
    });
  }

  /** Waits for each pattern in turn, as expect does; resolves with the last match. */
  async expectEach(...patterns: Array<RegExp | string>): Promise<string> {
    let last = '';
    for (const pattern of patterns) last = await this.expect(pattern);
    return last;
  }

  /** Types `text` and Enter, as the person answers or asks, then waits for each of `printed` in turn. */
  enter(text: string, ...printed: Array<RegExp | string>): Promise<string> {
    this.line(text);
    return this.expectEach(...printed);
  }

  type(text: string): void {
    this.proc.write(text);
  }

  line(text: string): void {
    this.proc.write(`${text}\r`);
  }

  kill(): void {
    try {
      this.proc.kill();
    } catch {
      /* already gone */
    }
  }
}
