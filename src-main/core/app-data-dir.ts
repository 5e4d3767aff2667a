import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'Open Interpreter Desktop';

/** The same folder Electron's app.getPath('userData') uses, so browser mode and the app share data. */
export function defaultAppDataDir(): string {
  if (process.env.OI_DATA_DIR) return path.resolve(process.env.OI_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_DIR_NAME);
}
