import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../../support/app-under-test';

const SERVE = path.join(REPO_ROOT, 'out', 'main', 'serve.js');

/**
 * `npm run serve`'s built entry in a process of its own, so an attack that would crash the server shows
 * as that process exiting (and cannot take the test runner down with it).
 */
export interface ServeChild {
  origin: string;
  port: number;
  launchUrl: string;
  token: string;
  /** Null while it runs; the exit code or signal once it has died. */
  exited(): string | null;
  output(): string;
  close(): Promise<void>;
}

export async function startServeChild(): Promise<ServeChild> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-attack-serve-'));
  const child: ChildProcess = spawn(process.execPath, [SERVE, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let exit: string | null = null;
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exit ${code ?? signal}`;
      resolve();
    }),
  );
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', look);
    void exited.then(() => reject(new Error(`serve exited before printing its URL (${exit}): ${out}`)));
  });
  const url = new URL(launchUrl);
  return {
    origin: url.origin,
    port: Number(url.port),
    launchUrl,
    token: url.searchParams.get('token') ?? '',
    exited: () => exit,
    output: () => out,
    async close() {
      if (exit === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
