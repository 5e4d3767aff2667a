import { mkdtemp } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { removeBeneath } from '../../fs/no-follow-open';
import { which } from '../languages/find-runtime';
import type { InstallPlace } from './install-place';
import { type InstallerResult, lastLines } from './installer-process';

// `npm install` into the workspace, where the JavaScript session (and node run from the shell)
// resolve packages from. --prefix pins it there: without it npm would climb to the nearest parent
// folder with a package.json and install into some other project. npm reads its usual
// configuration (.npmrc, npm_config_registry…) from the environment passed in.
//
// With the sandbox on, npm must not read anything the code wrote: the workspace's .npmrc can set
// the shell and node options npm's scripts run with, its package.json has scripts of its own, and
// node_modules/.bin is on their PATH — all while npm has the network. So npm installs into a fresh
// folder of the app's, inside the sandbox with the workspace hidden, and the result is copied into
// the workspace's node_modules inside the sandbox again, with the network off as the code has it.

export interface NpmInstallInput {
  packages: string[];
  workspace: string;
  env: Record<string, string>;
  onTerminal?: (text: string) => void;
  signal?: AbortSignal;
  place: InstallPlace;
  /** Where the fresh folder of a sandboxed install is made (the engine's temp root). */
  tmpRoot: string;
}

export interface NpmInstallResult {
  ok: boolean;
  command: string;
  problem: string | null;
  stopped: 'interrupted' | 'timeout' | null;
  /** What npm printed (plain text), for the cell's saved output. */
  log: string;
}

export async function npmInstall(input: NpmInstallInput): Promise<NpmInstallResult> {
  const command = `npm install --prefix ${input.workspace} ${input.packages.join(' ')}`;
  const npm = await which('npm', await input.place.trustedPath(input.env.PATH ?? process.env.PATH ?? ''));
  if (!npm) {
    return {
      ok: false,
      command,
      problem: 'npm is not installed here: install Node.js (which includes npm) to add JavaScript packages.',
      stopped: null,
      log: '',
    };
  }
  try {
    input.onTerminal?.(`\r\n\x1b[2m$ ${command}\x1b[0m\r\n`);
  } catch {
    // The UI's trouble is not the install's.
  }
  const common = { env: input.env, onTerminal: input.onTerminal, signal: input.signal };
  const install = (prefix: string): string[] => ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...input.packages];
  let result: InstallerResult;
  if (!input.place.sandboxed) {
    result = await input.place.run({ file: npm, args: install(input.workspace), cwd: input.workspace, ...common });
  } else {
    const staging = await mkdtemp(join(input.tmpRoot, 'oi-npm-'));
    try {
      // The home is hidden and read-only in the sandbox: npm's cache goes to its private /tmp.
      const env = { npm_config_cache: '/tmp/.npm', ...input.env };
      result = await input.place.run({
        ...common,
        env,
        file: npm,
        args: install(staging),
        cwd: staging,
        network: true,
        instead: { folder: staging },
      });
      if (result.ok) {
        const copy = await input.place.run({
          ...common,
          file: '/bin/sh',
          args: ['-c', 'mkdir -p "$2" && cp -a "$1/node_modules/." "$2/"', 'sh', staging, join(input.workspace, 'node_modules')],
          cwd: input.workspace,
          extraPaths: [staging],
        });
        result = copy.ok ? result : { ...copy, text: `${result.text}\ncopying into the workspace failed:\n${copy.text}` };
      }
    } finally {
      await removeBeneath(dirname(staging), [basename(staging)]).catch(() => undefined);
    }
  }
  return {
    ok: result.ok,
    command,
    problem: result.ok ? null : `${command} failed${result.stopped ? ` (${result.stopped})` : ''}:\n${lastLines(result.text)}`,
    stopped: result.stopped,
    // npm's spinner (braille frames) means nothing once saved.
    log: `$ ${command}\n${result.text
      .replace(/[\u2800-\u28ff]/g, '')
      .replace(/\n\s*(?=\n)/g, '')
      .trim()}`,
  };
}
