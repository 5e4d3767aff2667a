import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect } from 'vitest';

/** Where installed() notes each program it found missing (set by the summary reporter for its run). */
export const SKIP_LOG_VARIABLE = 'OI_TEST_SKIP_LOG';

/**
 * Whether a command is on PATH (for tests of runtimes .ci/run installs but a dev machine may lack).
 * Under CI (`OI_CI`, which .ci/run exports) a missing command throws instead: CI installs every
 * program a test asks for here, so a missing one is a broken install, and a skip would report the
 * feature green while nothing tested it (issue 36). Outside CI the miss is noted for the run's
 * closing summary (test/support/summary-reporter.ts), which names what was left untested and why.
 */
export function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.OI_CI) throw new Error(`${command} is not installed, and CI (OI_CI) installs it: see .ci/run`);
    noteMissing(command);
    return false;
  }
}

function noteMissing(command: string): void {
  const log = process.env[SKIP_LOG_VARIABLE];
  if (!log) return;
  const file = expect.getState().testPath;
  appendFileSync(log, `${command}\t${file ? relative(process.cwd(), file) : 'a test file'}\n`);
}
