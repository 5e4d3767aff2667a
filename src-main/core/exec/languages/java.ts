import { firstOnPath } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// Java 11+ runs a single source file directly (`java Main.java`): no separate compile step, and the
// file name need not match the class name.
export const java: LanguageDefinition = {
  name: 'java',
  label: 'Java',
  aliases: ['java'],
  kind: 'one-shot',
  runtimeLabel: 'java',
  async detect({ path, probing = localProbing() }) {
    return firstOnPath(probing, ['java'], path, ['-version'], /version "?(\d+(?:\.\d+)*)/);
  },
  oneShot: { fileName: 'Main.java', args: (file) => [file] },
};
