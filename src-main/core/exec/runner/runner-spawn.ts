import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageDefinition, Runtime } from '../languages/language';
import type { LimitController, LimitSettings } from '../process/limits';
import { systemProgram } from '../../programs/app-programs';
import { PtyProcess } from '../process/pty-process';

// How a runner's process is started, apart from runner-session.ts (which speaks to it once it
// runs): the command it is wrapped in, its environment and the private TMPDIR some runtimes get.
// All of it is decided before the process exists and reads nothing of the session's state.

/** The parts of a runner session's options its process is started with. */
interface SpawnOptions {
  language: LanguageDefinition;
  runtime: Runtime;
  workspace: string;
  env: Record<string, string>;
  limits: LimitController;
  limitSettings: LimitSettings;
}

/** The runner under a pty in the workspace, wrapped by the limits, with the channel's env (`channelEnv`). */
export async function spawnRunner(
  options: SpawnOptions,
  dir: string,
  args: string[],
  channelEnv: Record<string, string>,
): Promise<PtyProcess> {
  // The terminal set-up goes inside the limits' wrapping, and so inside the sandbox: for a sandboxed
  // conversation nothing but the sandbox tool starts outside it.
  const plain = { file: options.runtime.command, args };
  const inner = options.language.runner?.rawOutputItself ? plain : rawOutput(plain);
  const command = options.limits.wrapSpawn(inner.file, inner.args, options.limitSettings);
  return new PtyProcess({
    file: command.file,
    args: command.args,
    cwd: options.workspace,
    env: { ...options.env, ...channelEnv, ...(await privateTmpdir(options.language, dir)), OI_WORKSPACE: options.workspace },
  });
}

/**
 * Starts the runner with the pty's output processing off (`stty -opost`): the kernel then copies
 * output instead of expanding every LF to CRLF byte by byte, which makes printing through the pty
 * about a third faster. RunOutput puts the CRs back for the terminal view. A runner that does this
 * itself (Python: termios) skips the wrapper — a shell and an stty fewer, ~0.02 CPU-seconds a start.
 */
export function rawOutput(command: { file: string; args: string[] }): { file: string; args: string[] } {
  if (process.platform === 'win32') return command;
  // stty by its absolute system path: the shell would look a bare `stty` up on the session's PATH,
  // which can name a workspace folder (a `.venv/bin`, ".") where sandboxed code planted one.
  const stty = systemProgram('stty');
  if (!stty || !/^[\w/.-]+$/.test(stty)) return command;
  return { file: '/bin/sh', args: ['-c', `${stty} -opost 2>/dev/null; exec "$0" "$@"`, command.file, ...command.args] };
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
