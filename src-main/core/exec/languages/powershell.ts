import { firstOnPath } from './find-runtime';
import { localProbing } from './probing';
import type { LanguageDefinition } from './language';

// One process per run for now (no persistent REPL yet): PowerShell is rare outside Windows.
export const powershell: LanguageDefinition = {
  name: 'powershell',
  label: 'PowerShell',
  aliases: ['pwsh', 'ps1', 'ps', 'powershell'],
  kind: 'one-shot',
  runtimeLabel: 'powershell',
  async detect({ path, probing = localProbing() }) {
    return firstOnPath(
      probing,
      ['pwsh', 'powershell'],
      path,
      ['-NoLogo', '-NoProfile', '-Command', '$PSVersionTable.PSVersion.ToString()'],
      /(\d+\.\d+(?:\.\d+)?)/,
    );
  },
  oneShot: {
    fileName: 'cell.ps1',
    args: (file) => ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file],
  },
};
