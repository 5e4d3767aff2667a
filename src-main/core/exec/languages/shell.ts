import { isExecutable, versionOf, which } from './find-runtime';
import type { LanguageDefinition } from './language';

// bash kept alive with shell integration (see ../shell-session.ts). zsh and sh code is run by bash
// too: model-written shell snippets are almost always portable between them.
export const shell: LanguageDefinition = {
  name: 'shell',
  label: 'Shell',
  aliases: ['bash', 'sh', 'zsh', 'shell', 'console', 'terminal'],
  kind: 'shell',
  runtimeLabel: 'bash',
  async detect({ path }) {
    const command = (await which('bash', path)) ?? ((await isExecutable('/bin/bash')) ? '/bin/bash' : null);
    if (!command) return null;
    return { command, version: await versionOf(command, ['--version'], /version (\d+\.\d+(?:\.\d+)?)/) };
  },
};
