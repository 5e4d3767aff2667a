import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// What differs between the shells a ShellSession can keep alive (bash, zsh). Everything else —
// the OSC 633 sequences, the per-run nonce fence, the cell file, interrupts, limits — is the
// session's and the same for both.

export interface ShellStart {
  args: string[];
  /** Environment the shell needs on top of the session's (ZDOTDIR for zsh). */
  env: Record<string, string>;
}

export interface ShellFlavor {
  /** How messages name the session: "The shell session died", "The zsh session died". */
  label: string;
  /** The program, for errors while starting: 'bash', 'zsh'. */
  program: string;
  /** The user file a shell that never shows its first prompt is most likely stuck in. */
  rcHint: string;
  /**
   * Puts the integration (scripts under `resourcesDir`/shell) into the session's private 0700 folder
   * and says how to start the shell with it. `env` is the environment the shell will get (the
   * user's ZDOTDIR is read from it).
   */
  prepare(dir: string, env: Readonly<Record<string, string>>, resourcesDir: string): Promise<ShellStart>;
  /** The line main types to run the cell file with this run's nonce (ends with CR). */
  runLine(nonce: string): string;
}

/**
 * Copies an integration script from the app's resources into the session's private folder (0600), so
 * a session keeps the script it started with; `check` refuses a script that does not fit the code.
 */
export async function installScript(
  resourcesDir: string,
  resource: string,
  target: string,
  check?: (text: string) => string | null,
): Promise<void> {
  const text = await readFile(join(resourcesDir, resource), 'utf8');
  const problem = check?.(text) ?? null;
  if (problem) throw new Error(`${resource}: ${problem}`);
  await writeFile(target, text, { mode: 0o600 });
}
