import { isExecutable, versionOf, which } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// bash kept alive with shell integration (see ../shell-session.ts). `bash` and `sh` cells always run
// here; `shell` and the other generic names run in the user's shell, which may be zsh instead
// (../shell-choice.ts). zsh has its own language (zsh.ts) and session.

/** Names that ask for "a shell" without saying which: they follow $SHELL or the exec.shell setting. */
export const GENERIC_SHELL_NAMES: readonly string[] = ['shell', 'console', 'terminal'];

export const shell: LanguageDefinition = {
  name: 'shell',
  label: 'Shell',
  aliases: ['bash', 'sh', 'shell', 'console', 'terminal'],
  kind: 'shell',
  runtimeLabel: 'bash',
  async detect({ path, probing = localProbing() }) {
    const command = (await which('bash', path)) ?? ((await isExecutable('/bin/bash')) ? '/bin/bash' : null);
    if (!command) return null;
    return { command, version: await versionOf(probing, command, ['--version'], /version (\d+\.\d+(?:\.\d+)?)/) };
  },
};
