import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty, { type IPty } from 'node-pty';

export const REPO = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(REPO, 'src-main', 'cli', 'main.ts');

/** The environment `oi` runs with in tests: its own data folder, keys from the environment only. */
export function cliEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('VITEST') && !k.endsWith('_API_KEY')) env[k] = v;
  return {
    ...env,
    TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json'),
    OI_DATA_DIR: dataDir,
    OI_NO_KEYCHAIN: '1',
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

/** Runs `oi <args>` to completion without a terminal (stdin is not a TTY). */
export function runOi(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: REPO, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end();
  });
}

// CSI sequences and OSC titles, so tests match the text a person reads.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

/** `oi` in a pseudo-terminal, as a person would use it. */
export class OiTerminal {
  private readonly proc: IPty;
  private text = '';
  private mark = 0;
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<number>;

  constructor(args: string[], env: Record<string, string>) {
    this.proc = pty.spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { name: 'xterm-256color', cols: 120, rows: 40, cwd: REPO, env });
    this.proc.onData((data) => {
      this.text += data.replace(ANSI, '');
      for (const wake of [...this.waiters]) wake();
    });
    this.exited = new Promise((resolve) => this.proc.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /** Everything printed so far (escape sequences removed). */
  get output(): string {
    return this.text;
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
        const m = typeof pattern === 'string' ? (rest.includes(pattern) ? { index: rest.indexOf(pattern), 0: pattern } : null) : pattern.exec(rest);
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
