import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageDefinition } from '../languages/language';

// How a runner's process is started, apart from runner-session.ts (which speaks to it once it
// runs): the command it is wrapped in and the private TMPDIR some runtimes get. Both are decided
// before the process exists and read nothing of the session's state.

/**
 * Starts the runner with the pty's output processing off (`stty -opost`): the kernel then copies
 * output instead of expanding every LF to CRLF byte by byte, which makes printing through the pty
 * about a third faster. RunOutput puts the CRs back for the terminal view.
 */
export function rawOutput(command: { file: string; args: string[] }): { file: string; args: string[] } {
  if (process.platform === 'win32') return command;
  return { file: '/bin/sh', args: ['-c', 'stty -opost 2>/dev/null; exec "$0" "$@"', command.file, ...command.args] };
}

/** TMPDIR in the session's folder (`dir`) for runtimes that leave their own temp folder behind when
 *  killed (languages/language.ts). A sandbox sets its own TMPDIR over this one: the sandbox's
 *  private /tmp, or its private folder on macOS, which go away with it as well. */
export async function privateTmpdir(language: LanguageDefinition, dir: string): Promise<Record<string, string>> {
  if (!language.privateTmpdir) return {};
  const tmp = join(dir, 'tmp');
  await mkdir(tmp, { recursive: true, mode: 0o700 });
  return { TMPDIR: tmp };
}
