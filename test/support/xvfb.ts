import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

// A real X server for the computer-use tests (Debian's xvfb), and real X programs on it.

export interface Xvfb {
  display: string;
  /** Starts the test form (test/fixtures/computer/tk-form.py) on this display; resolves once it is mapped. */
  startForm(out: string, opts?: { x?: number; y?: number; className?: string; color?: string }): Promise<ChildProcess>;
  /** Runs an X program on this display, as the person at the screen would (xdotool, xset). */
  run(program: string, args: string[]): string;
  close(): Promise<void>;
}

export const TK_FORM = path.resolve(import.meta.dirname, '../fixtures/computer/tk-form.py');

/** An X server of this size (at `dpi`, as a HiDPI screen reports itself; default Xvfb's); -displayfd picks a free display number. */
export async function startXvfb(width: number, height: number, dpi?: number): Promise<Xvfb> {
  const size = ['-screen', '0', `${width}x${height}x24`, ...(dpi ? ['-dpi', String(dpi)] : [])];
  const server = spawn('Xvfb', ['-displayfd', '3', ...size, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const fd = server.stdio[3] as NodeJS.ReadableStream;
  const [line] = (await once(createInterface({ input: fd }), 'line')) as [string];
  const display = `:${line.trim()}`;
  const children: ChildProcess[] = [];
  return {
    display,
    async startForm(out, opts = {}) {
      const args = [TK_FORM, out, String(opts.x ?? 100), String(opts.y ?? 80)];
      if (opts.className) args.push('--class', opts.className);
      if (opts.color) args.push('--color', opts.color);
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
    run(program, args) {
      return execFileSync(program, args, { env: { PATH: '/usr/bin:/bin', DISPLAY: display }, encoding: 'utf8' });
    },
    async close() {
      for (const child of children) child.kill();
      server.kill();
      await Promise.all([...children, server].filter((c) => c.exitCode === null && c.signalCode === null).map((c) => once(c, 'exit')));
    },
  };
}
