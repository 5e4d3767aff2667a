import path from 'node:path';
import ElectronStore from 'electron-store';
import { openSettingsFile, parseSettingsJson, SETTINGS_CONFIG_NAME, SETTINGS_FILE_MODE, type SettingsFileOptions } from '../core/settings/settings-file';
import type { SettingsStore } from '../core/settings/settings-store';

export interface ElectronSettingsStoreOptions extends SettingsFileOptions {
  /** app.getPath('userData'), passed in so this file needs nothing from 'electron' itself. */
  dir: string;
}

/**
 * The desktop app's settings: electron-store over <userData>/settings.json. All reading, migration and
 * repair is the shared core in settings-file.ts, tested under Node with node-settings-store.ts; this adapter only opens the
 * library. Call it in the main process only.
 */
export function openElectronSettingsStore(options: ElectronSettingsStoreOptions): SettingsStore {
  const dir = path.resolve(options.dir);
  return openSettingsFile(
    {
      path: path.join(dir, `${SETTINGS_CONFIG_NAME}.json`),
      open: () => {
        const store = new ElectronStore<Record<string, unknown>>({
          cwd: dir,
          name: SETTINGS_CONFIG_NAME,
          configFileMode: SETTINGS_FILE_MODE,
          deserialize: parseSettingsJson,
          clearInvalidConfig: false,
        });
        return {
          set: (settings) => {
            store.store = settings;
          },
        };
      },
    },
    options,
  );
}
