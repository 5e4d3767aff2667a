import { userInfo } from 'node:os';
import { basename } from 'node:path';
import type { ExecSettings } from '@contract';
import type { LanguageDefinition } from '../languages/language';
import type { Probing } from '../languages/probing';
import { GENERIC_SHELL_NAMES, shell } from '../languages/shell';
import { zsh } from '../languages/zsh';

// Which shell a shell cell runs in. `bash`/`sh` cells: bash. `zsh` cells: zsh, or bash with a note
// when zsh is not installed. `shell` (and console/terminal): the exec.shell setting, and with
// 'auto' the user's login shell when it is zsh, else bash — macOS users' shell is zsh, and the model
// is told which one it gets (agent/environment-context.ts). bash and zsh are separate sessions.

export type ShellName = 'bash' | 'zsh';

export interface ShellChoice {
  language: LanguageDefinition;
  /** One line for the run's result when the cell did not get the shell it asked for. */
  note: string | null;
}

export interface ShellContext {
  /** The user's login shell ($SHELL), or null. */
  loginShell: string | null;
  /** PATH of the run's environment, where zsh is looked for. */
  path: string;
  /** Where zsh is run to ask its version (the run's route; default: directly). */
  probing?: Probing;
}

/** The shell a session of this language is (bash for `shell`, zsh for `zsh`), or null for other languages. */
export function shellOf(language: LanguageDefinition): ShellName | null {
  if (language.kind !== 'shell') return null;
  return language === zsh ? 'zsh' : 'bash';
}

/**
 * How a cell names its language, as far as the choice of session goes: `shell` and the other
 * generic names may land in bash or zsh, so they are apart from `bash`/`sh` (always bash).
 */
export function askedAs(requested: string, language: LanguageDefinition): string {
  const generic = language.kind === 'shell' && GENERIC_SHELL_NAMES.includes(requested.trim().toLowerCase());
  return generic ? 'generic shell' : language.name;
}

/** The login shell: $SHELL from the given environment, else the account's shell from the password database. */
export function loginShellOf(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.SHELL) return env.SHELL;
  try {
    return userInfo().shell ?? null;
  } catch {
    return null;
  }
}

/** The shell a generic `shell` cell asks for, before checking that zsh is there. */
export function genericShell(setting: ExecSettings['shell'], loginShell: string | null): ShellName {
  if (setting !== 'auto') return setting;
  return loginShell && basename(loginShell) === 'zsh' ? 'zsh' : 'bash';
}

export function zshMissingNote(): string {
  return 'Note: zsh is not installed here, so this cell ran in bash (zsh-only syntax fails there).';
}

export async function chooseShell(
  requested: string,
  language: LanguageDefinition,
  setting: ExecSettings['shell'],
  context: ShellContext,
): Promise<ShellChoice> {
  if (language.kind !== 'shell') return { language, note: null };
  const generic = GENERIC_SHELL_NAMES.includes(requested.trim().toLowerCase());
  const wanted: ShellName = language === zsh ? 'zsh' : generic ? genericShell(setting, context.loginShell) : 'bash';
  if (wanted === 'bash') return { language: shell, note: null };
  const found = await zsh
    .detect({ path: context.path, workspace: null, settings: null, ...(context.probing ? { probing: context.probing } : {}) })
    .catch(() => null);
  if (found) return { language: zsh, note: null };
  // Asked for by name (the cell or the setting): say so. A login shell that is zsh but not on the
  // run's PATH is not worth a note: `shell` cells are portable shell code.
  const asked = language === zsh || setting === 'zsh';
  return { language: shell, note: asked ? zshMissingNote() : null };
}
