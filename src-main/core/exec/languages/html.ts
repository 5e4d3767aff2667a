import type { LanguageDefinition } from './language';

// Not executed: the code becomes a text/html output that the UI renders in a sandboxed frame.
export const html: LanguageDefinition = {
  name: 'html',
  label: 'HTML',
  aliases: ['html', 'htm'],
  kind: 'html',
  runtimeLabel: 'html',
  async detect() {
    return { command: '', version: null };
  },
};
