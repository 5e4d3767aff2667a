import { firstOnPath } from './find-runtime';
import type { LanguageDefinition } from './language';

export const ruby: LanguageDefinition = {
  name: 'ruby',
  label: 'Ruby',
  aliases: ['rb', 'ruby'],
  kind: 'one-shot',
  runtimeLabel: 'ruby',
  async detect({ path }) {
    return firstOnPath(['ruby'], path, ['--version'], /ruby (\d+\.\d+\.\d+)/);
  },
  oneShot: { fileName: 'cell.rb', args: (file) => [file] },
};
