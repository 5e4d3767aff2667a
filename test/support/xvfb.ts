import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll } from 'vitest';

// A real X server for the computer-use tests (Debian's xvfb), and real X programs on it.

export interface Xvfb {
  display: string;
  /** Starts the test form (test/fixtures/computer/tk-form.py) on this display; resolves once it is mapped. */
  startForm(out: string, opts?: { x?: number; y?: number; className?: string; color?: string; title?: string }): Promise<ChildProcess>;
  /** Runs an X program on this display, as the person at the screen would (xdotool, xset). */
  run(program: string, args: string[]): string;
  /**
   * The screen as the next test must find it: every form ended (its windows gone with its X
   * connection) and the pointer in the middle, away from the corners (the person's stop gesture).
   */
  reset(): Promise<void>;
  /** The ids of the visible windows that have a title or a class. */
  windows(): string[];
  close(): Promise<void>;
}

export const TK_FORM = path.resolve(import.meta.dirname, '../fixtures/computer/tk-form.py');

/** An X server of this size (at `dpi`, as a HiDPI screen reports itself; default Xvfb's); -displayfd picks a free display number. */
export async function startXvfb(width: number, height: number, dpi?: number): Promise<Xvfb> {
  const size = ['-screen', '0', `${width}x${height}x24`, ...(dpi ? ['-dpi', String(dpi)] : [])];
  // -noreset: by default the server resets itself whenever its last client leaves, and a client that
  // connects during the reset is refused ("Can't open display") — 3 in 300 times when a form ends just
  // before the next xdotool, on a loaded machine. Tests end forms and start X programs back to back.
  const server = spawn('Xvfb', ['-displayfd', '3', ...size, '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const fd = server.stdio[3] as NodeJS.ReadableStream;
  const [line] = (await once(createInterface({ input: fd }), 'line')) as [string];
  const display = `:${line.trim()}`;
  const children: ChildProcess[] = [];
  const run = (program: string, args: string[]): string =>
    execFileSync(program, args, { env: { PATH: '/usr/bin:/bin', DISPLAY: display }, encoding: 'utf8' });
  const windows = (): string[] => {
    const search = spawnSync('xdotool', ['search', '--onlyvisible', '--name', '--class', '--classname', '.'], {
      env: { PATH: '/usr/bin:/bin', DISPLAY: display },
      encoding: 'utf8',
    });
    // xdotool search exits 1 when it finds nothing, and also when it cannot reach the server: only the
    // first means "no window", or a refused connection would pass for a clean screen.
    if (search.status !== 0 && (search.status !== 1 || search.stderr.trim() !== ''))
      throw new Error(`xdotool search failed (${search.status}): ${search.stderr.trim()}`);
    return search.stdout.split('\n').filter((line) => /^\d+$/.test(line));
  };
  return {
    display,
    async startForm(out, opts = {}) {
      const args = [TK_FORM, out, String(opts.x ?? 100), String(opts.y ?? 80)];
      if (opts.className) args.push('--class', opts.className);
      if (opts.color) args.push('--color', opts.color);
      if (opts.title) args.push('--title', opts.title);
      // The system's Python, which has Tk (python3-tk).
      const child = spawn('/usr/bin/python3', args, {
        env: { PATH: '/usr/bin:/bin', DISPLAY: display },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      const [ready] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [string];
      if (ready !== 'ready') throw new Error(`the test form said ${ready}`);
      return child;
    },
    run,
    windows,
    async reset() {
      const running = children.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
      for (const child of running) child.kill();
      await Promise.all(running.map((c) => once(c, 'exit')));
      // The server ends a client's windows when it reads the end of its connection, which may come after
      // the process is gone: asked until no window is up (each ask a round trip to the server).
      for (let tries = 0; windows().length > 0; tries++)
        if (tries === 100) throw new Error(`windows are still up after their programs ended: ${windows().join(' ')}`);
      run('xdotool', ['mousemove', String(width >> 1), String(height >> 1)]);
    },
    async close() {
      for (const child of children) child.kill();
      server.kill();
      await Promise.all([...children, server].filter((c) => c.exitCode === null && c.signalCode === null).map((c) => once(c, 'exit')));
    },
  };
}

/** The X server a test file shares, and a scratch folder for its forms' output files. */
export interface XvfbForFile extends Xvfb {
  readonly tmp: string;
}

/**
 * One X server of this size for all the tests of a file (started before them, closed with its scratch
 * folder after them), or none where `canRun` is false; after each test, the screen is reset (no form
 * left, the pointer in the middle), after the file's own after-each hooks. Read it only inside tests
 * and their hooks.
 */
export function useXvfb(canRun: boolean, screen: { width: number; height: number; dpi?: number; tmpPrefix: string }): XvfbForFile {
  let server: Xvfb | undefined;
  let tmp = '';
  beforeAll(async () => {
    if (!canRun) return;
    server = await startXvfb(screen.width, screen.height, screen.dpi);
    tmp = mkdtempSync(path.join(os.tmpdir(), screen.tmpPrefix));
  });
  // Registered first, so it runs after the file's own after-each hooks (last registered, first run):
  // a test's harness is closed before its forms end.
  afterEach(async () => {
    if (canRun) await server?.reset();
  });
  afterAll(async () => {
    if (!canRun) return;
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  const started = (): Xvfb => {
    if (!server) throw new Error('the X server is not running (canRun is false, or outside a test)');
    return server;
  };
  return {
    get display() {
      return started().display;
    },
    get tmp() {
      return tmp;
    },
    startForm: (out, opts) => started().startForm(out, opts),
    run: (program, args) => started().run(program, args),
    reset: () => started().reset(),
    windows: () => started().windows(),
    close: () => started().close(),
  };
}
