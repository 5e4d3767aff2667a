import path from 'node:path';
import { packageRoot } from '../app-version';
import type { OiCommand } from './os-units';

/**
 * The command line that runs this installation's `oi`: this Node (or the desktop app's own binary run
 * as Node) and the package's bin/oi.mjs, by absolute paths, so the OS scheduler starts the same oi
 * the task was added with whatever PATH it gives. PATH is kept as the person had it when adding the
 * task: the run's code finds the same programs as in their terminal.
 */
export function currentOiCommand(env: NodeJS.ProcessEnv): OiCommand {
  const electron = process.versions.electron !== undefined;
  return {
    program: process.execPath,
    args: [path.join(packageRoot(), 'bin', 'oi.mjs')],
    env: { ...(env.PATH ? { PATH: env.PATH } : {}), ...(electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
  };
}
