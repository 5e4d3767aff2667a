import { versionOf, which } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// zsh kept alive with shell integration from its precmd/preexec hooks (../zsh-integration.ts), in a
// session of its own: state is not shared with bash cells. When zsh is not installed, zsh cells run
// in bash with a note saying so (../shell-choice.ts). Looked for on the run's PATH only (bash also
// falls back to /bin/bash): macOS keeps zsh in /bin, which every PATH holds.
export const zsh: LanguageDefinition = {
  name: 'zsh',
  label: 'zsh',
  aliases: ['zsh'],
  kind: 'shell',
  runtimeLabel: 'zsh',
  async detect({ path, probing = localProbing() }) {
    const command = await which('zsh', path);
    if (!command) return null;
    return { command, version: await versionOf(probing, command, ['--version'], /zsh (\d+\.\d+(?:\.\d+)?)/) };
  },
};
