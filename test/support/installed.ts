import { execFileSync } from 'node:child_process';

/** Whether a command is on PATH (for tests of runtimes .ci/run installs but a dev machine may lack). */
export function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
