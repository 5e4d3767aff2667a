import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Debian's python3 (the pyenv one first on PATH works too: only ctypes is needed). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * Starts swapping the names `a` and `b` (a real folder and a link to outside) in a tight loop in a
 * process of its own (swap-loop.py). stop() ends it, puts both names back, and says how many swaps
 * it made; count() asks the running swapper how many it has made so far, so a test can show the race
 * kept running between any two points of its work, not just that it ran at some time.
 */
export interface Swapper {
  count(): Promise<number>;
  stop(): Promise<number>;
}

export async function startSwapper(a: string, b: string): Promise<Swapper> {
  const child = spawn(PYTHON, [path.join(import.meta.dirname, 'swap-loop.py'), a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('ready') && resolve());
    void exited.then((code) => reject(new Error(`the swapper exited (${code}): ${out}`)));
  });
  return {
    count() {
      const from = out.length;
      const answered = new Promise<number>((resolve, reject) => {
        const onData = () => {
          const count = /count (\d+)\n/.exec(out.slice(from));
          if (!count) return;
          child.stdout.off('data', onData);
          resolve(Number(count[1]));
        };
        child.stdout.on('data', onData);
        void exited.then((code) => reject(new Error(`the swapper exited (${code}) before it answered: ${out}`)));
      });
      child.kill('SIGUSR1');
      return answered;
    },
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the swapper failed (${code}): ${out}`);
      return Number(/swaps (\d+)/.exec(out)?.[1] ?? 0);
    },
  };
}
