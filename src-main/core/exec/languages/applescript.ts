import { isExecutable } from './find-runtime';
import type { LanguageDefinition } from './language';

// macOS only; each run is a fresh osascript.
export const applescript: LanguageDefinition = {
  name: 'applescript',
  label: 'AppleScript',
  aliases: ['applescript', 'osascript', 'scpt'],
  kind: 'one-shot',
  runtimeLabel: 'applescript',
  async detect() {
    if (process.platform !== 'darwin' || !(await isExecutable('/usr/bin/osascript'))) return null;
    return { command: '/usr/bin/osascript', version: null };
  },
  oneShot: { fileName: 'cell.applescript', args: (file) => [file] },
};
