import path from 'node:path';
import Conf from 'conf';
import { openSettingsFile, parseSettingsJson, type SettingsFileOptions } from './settings-file';
import type { SettingsStore } from './settings-store';

export const SETTINGS_CONFIG_NAME = 'settings';

/** Owner-only: settings name the workspace and may carry environment variables for code runs. */
export const SETTINGS_FILE_MODE = 0o600;

export interface ConfSettingsStoreOptions extends SettingsFileOptions {
  /** The app data directory; the file is <dir>/settings.json. */
  dir: string;
}

/** Settings under plain Node (the `oi` command, tests), in the same file format as the desktop app. */
export function openConfSettingsStore(options: ConfSettingsStoreOptions): SettingsStore {
  const dir = path.resolve(options.dir);
  return openSettingsFile(
    {
      path: path.join(dir, `${SETTINGS_CONFIG_NAME}.json`),
      open: () => {
        const conf = new Conf<Record<string, unknown>>({
          cwd: dir,
          configName: SETTINGS_CONFIG_NAME,
          configFileMode: SETTINGS_FILE_MODE,
          deserialize: parseSettingsJson,
          clearInvalidConfig: false,
        });
        return {
          set: (settings) => {
            conf.store = settings;
          },
        };
      },
    },
    options,
  );
}
