import { firstOnPath } from './find-runtime';
import type { LanguageDefinition } from './language';

export const r: LanguageDefinition = {
  name: 'r',
  label: 'R',
  aliases: ['r', 'rscript'],
  kind: 'one-shot',
  runtimeLabel: 'R',
  async detect({ path }) {
    return firstOnPath(['Rscript'], path, ['--version'], /version (\d+\.\d+\.\d+)/);
  },
  oneShot: { fileName: 'cell.R', args: (file) => ['--no-echo', file] },
};
