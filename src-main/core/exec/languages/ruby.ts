import { join } from 'node:path';
import { firstOnPath } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// A persistent runner (resources/runners/ruby); the one-shot command is the fallback when the
// runner cannot start.
export const ruby: LanguageDefinition = {
  name: 'ruby',
  label: 'Ruby',
  aliases: ['rb', 'ruby'],
  kind: 'runner',
  runtimeLabel: 'ruby',
  async detect({ path, probing = localProbing() }) {
    return firstOnPath(probing, ['ruby'], path, ['--version'], /ruby (\d+\.\d+\.\d+)/);
  },
  runner: {
    script: join('runners', 'ruby', 'oi_runner.rb'),
    args: (script) => [script],
  },
  oneShot: { fileName: 'cell.rb', args: (file) => [file] },
};
