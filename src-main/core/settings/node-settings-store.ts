import fs from 'node:fs';
import path from 'node:path';
import { writeFileSync as writeFileAtomicSync } from 'atomically';
import { openSettingsFile, SETTINGS_CONFIG_NAME, SETTINGS_FILE_MODE, type SettingsFileOptions } from './settings-file';
import type { SettingsStore } from './settings-store';

export interface NodeSettingsStoreOptions extends SettingsFileOptions {
  /** The app data directory; the file is <dir>/settings.json. */
  dir: string;
}

/**
 * The settings file of the desktop app, browser mode, the `oi` command and the tests. The core
 * (settings-file.ts) reads, migrates and repairs the file itself, so all this adapter does is write it
 * as electron-store (which the desktop app used before) did: tab-indented JSON, atomically
 * (`atomically`, the writer electron-store's conf uses: a temporary file beside it, fsync, rename),
 * owner-only. conf is not used: it loads a JSON-schema validator and semver (a third of the bundle) for
 * features the core does not use, on every start (bench/startup.bench.ts).
 */
export function openNodeSettingsStore(options: NodeSettingsStoreOptions): SettingsStore {
  const dir = path.resolve(options.dir);
  const file = path.join(dir, `${SETTINGS_CONFIG_NAME}.json`);
  return openSettingsFile(
    {
      path: file,
      open: () => {
        // As the libraries do on open: a folder that cannot be made means settings cannot be saved.
        fs.mkdirSync(dir, { recursive: true });
        return {
          set: (settings) => writeFileAtomicSync(file, JSON.stringify(settings, undefined, '\t'), { mode: SETTINGS_FILE_MODE }),
        };
      },
    },
    options,
  );
}
