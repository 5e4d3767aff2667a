import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '@contract';
import { userSkillsFolder } from '../core/agent/skills/skill-discovery';
import { installSkill } from '../core/agent/skills/skill-install';
import { workspaceTrust } from '../core/workspace/workspace-trust';
import { defaultAppDataDir } from '../core/app-data-dir';
import { openNodeSettingsStore } from '../core/settings/node-settings-store';

// `oi skills install <folder|zip>` and `oi trust <folder>` (docs/cli.md): what Settings → Skills and
// *Trust this folder* do in the window, for a person who lives in the terminal. Both change the data
// folder the desktop app shares, and print one line saying what they did.

/** Where each line goes: what was done to stdout, usage and failures to stderr. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export const SKILLS_USAGE = 'usage: oi skills install <skill folder or .zip>';
export const TRUST_USAGE = 'usage: oi trust <folder>';

export async function runSkillsInstall(argv: string[], io: CommandOutput): Promise<number> {
  const source = argv[0];
  if (argv.length !== 1 || !source) return (io.err(SKILLS_USAGE), 2);
  const dataDir = defaultAppDataDir();
  try {
    const name = await installSkill(dataDir, path.resolve(source));
    io.out(`Installed the skill ${name} in ${path.join(userSkillsFolder(dataDir), name)}.`);
    return 0;
  } catch (err) {
    io.err(`The skill was not installed: ${errorMessage(err)}`);
    return 1;
  }
}

/**
 * Trusts a folder as the window's *Trust this folder* does: the repository it is in (its root, the
 * nearest folder up holding .git), else the folder itself, so its AGENTS.md, skills, hooks and saved
 * commands are used.
 */
export async function runTrust(argv: string[], io: CommandOutput): Promise<number> {
  const folder = argv[0];
  if (argv.length !== 1 || !folder) return (io.err(TRUST_USAGE), 2);
  const isFolder = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) return (io.err(`oi trust: ${path.resolve(folder)} is not a folder`), 2);
  const settings = openNodeSettingsStore({ dir: defaultAppDataDir() });
  const now = settings.get().trustedFolders;
  const { real, trustFolder, trusted } = await workspaceTrust(path.resolve(folder), now);
  const which = trustFolder === real ? trustFolder : `${trustFolder} (the repository ${real} is in)`;
  if (trusted) return (io.out(`${which} is already trusted.`), 0);
  settings.update({ trustedFolders: [...now, trustFolder] });
  io.out(`Trusted ${which}: its AGENTS.md, skills, hooks and saved commands are used from now on.`);
  return 0;
}
