import { join } from 'node:path';
import { firstOnPath } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// A persistent runner (resources/runners/r) on a FIFO side channel: base R has no Unix sockets.
// The one-shot command is the fallback when the runner cannot start (e.g. Windows, no FIFOs).
export const r: LanguageDefinition = {
  name: 'r',
  label: 'R',
  aliases: ['r', 'rscript'],
  kind: 'runner',
  runtimeLabel: 'R',
  async detect({ path, probing = localProbing() }) {
    return firstOnPath(probing, ['Rscript'], path, ['--version'], /version (\d+\.\d+\.\d+)/);
  },
  runner: {
    script: join('runners', 'r', 'oi_runner.R'),
    args: (script) => ['--no-save', '--no-restore', script],
    channel: 'fifo',
  },
  // R's tempdir() (RtmpXXXXXX) outlives a killed R; inside a folder the engine removes, it does not.
  privateTmpdir: true,
  oneShot: { fileName: 'cell.R', args: (file) => ['--no-echo', file] },
};
