import { spawn } from 'node:child_process';
import path from 'node:path';

/** The pre-fix upgrade handler (unguarded-upgrade-server.mjs) in a process of its own. */
export interface UnguardedServer {
  origin: string;
  port: number;
  exited(): string | null;
  /** What it printed: every Cookie header it received, then the first token cookie it decoded. */
  output(): string;
  untilExit(): Promise<string>;
  close(): Promise<void>;
}

export async function startUnguardedServer(): Promise<UnguardedServer> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'unguarded-upgrade-server.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exit: string | null = null;
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exit ${code ?? signal}`;
      resolve(exit);
    }),
  );
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`the unguarded server exited: ${out}`)));
  });
  return {
    origin,
    port: Number(new URL(origin).port),
    exited: () => exit,
    output: () => out,
    untilExit: () => exited,
    async close() {
      if (exit === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
