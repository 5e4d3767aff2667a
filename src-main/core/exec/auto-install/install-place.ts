import { delimiter, isAbsolute } from 'node:path';
import type { SandboxSettings } from '@contract';
import { localProbing, type Probing } from '../languages/probing';
import { sandboxProbing } from '../sandbox/sandbox-probing';
import { sandboxSupport, type SandboxSupport } from '../sandbox/sandbox-support';
import { oneOffSandbox } from '../sandbox/sandbox-wrap';
import { type InstallerResult, type InstallerRun, runInstaller } from './installer-process';

// Where an automatic install runs. Without the sandbox: here, as the user would run pip or npm.
// With it: inside the conversation's own sandbox, the network on for that one command (an approved
// download), so an installer — and everything it runs or reads: a .venv's pip, setup.py, .npmrc,
// package.json scripts, node_modules/.bin — can write nothing the code could not, and reads or runs
// nothing the code wrote with the network on: pip runs from an interpreter outside the workspace,
// npm in a fresh folder with the workspace hidden (npm-install.ts, pip-install.ts).

export interface InstallRunOptions extends InstallerRun {
  /** Sandboxed only: the network for this command (downloads); default the conversation's setting. */
  network?: boolean;
  /** Sandboxed only: run in this folder, the workspace hidden. */
  instead?: { folder: string };
  /** Sandboxed only: more folders visible (`/path` read-only, `/path:rw`). */
  extraPaths?: string[];
  /** Sandboxed only: programs the app found itself that the command needs to see (Runtime.support). */
  programs?: readonly string[];
}

export interface InstallPlace {
  /** True when installs run inside the conversation's sandbox. */
  sandboxed: boolean;
  /** Where interpreters are asked things (languages/probing.ts). */
  probing: Probing;
  /** PATH without entries sandboxed code could write (or relative ones): where installers are looked for. */
  trustedPath(path: string): Promise<string>;
  run(options: InstallRunOptions): Promise<InstallerResult>;
}

export interface InstallPlaceInput {
  sandbox: SandboxSettings | undefined;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  support?: () => Promise<SandboxSupport>;
}

/** The place for this request, or a sentence saying why installs cannot run (the sandbox is unusable). */
export async function installPlace(input: InstallPlaceInput): Promise<InstallPlace | string> {
  const absoluteOnly = (path: string): string =>
    path
      .split(delimiter)
      .filter((dir) => dir && isAbsolute(dir))
      .join(delimiter);
  if (!input.sandbox?.enabled) {
    return {
      sandboxed: false,
      probing: localProbing(),
      trustedPath: async (path) => absoluteOnly(path),
      run: (options) => runInstaller(options),
    };
  }
  const sandbox = input.sandbox;
  const support = await (input.support ?? sandboxSupport)();
  if (!support.available) return `the sandbox is on, but ${support.reason}`;
  const probing = sandboxProbing({ support, settings: sandbox, workspace: input.workspace, tmpRoot: input.tmpRoot, env: input.env });
  const trustedPath = async (path: string): Promise<string> => {
    const kept: string[] = [];
    for (const dir of absoluteOnly(path).split(delimiter)) if (dir && !(await probing.writable(dir))) kept.push(dir);
    return kept.join(delimiter);
  };
  return {
    sandboxed: true,
    probing,
    trustedPath,
    async run(options) {
      const home = options.env.HOME;
      const once = await oneOffSandbox(
        {
          support,
          settings: sandbox,
          workspace: input.workspace,
          tmpRoot: input.tmpRoot,
          ...(home ? { home } : {}),
          ...(options.network !== undefined ? { network: options.network } : {}),
          ...(options.instead ? { instead: options.instead } : {}),
          ...(options.extraPaths ? { extraPaths: options.extraPaths } : {}),
          ...(options.programs ? { programs: options.programs } : {}),
        },
        { file: options.file, args: options.args },
      );
      try {
        // The sandbox's own PATH is the trusted one: `#!/usr/bin/env node` must not find a node the code wrote.
        const env = { ...options.env, PATH: await trustedPath(options.env.PATH ?? '') };
        return await runInstaller({ ...options, file: once.command.file, args: once.command.args, cwd: once.cwd, env });
      } finally {
        await once.dispose();
      }
    },
  };
}
