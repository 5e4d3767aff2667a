import { execFileSync } from 'node:child_process';

/**
 * Whether a command is on PATH (for tests of runtimes .ci/run installs but a dev machine may lack).
 * Under CI (`OI_CI`, which .ci/run exports) a missing command throws instead: CI installs every
 * program a test asks for here, so a missing one is a broken install, and a skip would report the
 * feature green while nothing tested it (issue 36).
 */
export function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.OI_CI) throw new Error(`${command} is not installed, and CI (OI_CI) installs it: see .ci/run`);
    return false;
  }
}
