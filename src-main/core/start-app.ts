import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createApp, type App, type AppOptions } from './app';
import { defaultAppDataDir } from './app-data-dir';
import { appVersion, packageRoot } from './app-version';
import { Languages } from './exec';
import { openSecretStore, type OpenedSecretStore } from './secrets/open-secret-store';
import { openNodeSettingsStore } from './settings/node-settings-store';
import type { SecretStore } from './secrets/secret-store';
import type { SettingsStore } from './settings/settings-store';

export interface StartAppOptions<S extends SettingsStore> {
  /** Default: the folder the desktop app shares with browser mode and the CLI (app-data-dir.ts). */
  dataDir?: string;
  /** Holds package.json (the version) and, unless resourcesDir says otherwise, resources/. */
  packageRoot?: string;
  /** The packaged desktop app keeps resources/ outside app.asar. */
  resourcesDir?: string;
  /** The keychain, opened the entry point's way (how long it may wait, what it says without one). */
  openSecrets(): Promise<Pick<OpenedSecretStore, 'store' | 'notice'>>;
  /** The settings the app reads, over the saved ones (the CLI's flags); default: the saved ones. */
  settings?(saved: SettingsStore): S;
  /** Passed on to createApp unchanged. */
  app?: Pick<AppOptions, 'env' | 'mcpApprovalEndpoint' | 'localServers' | 'ownWindows' | 'profileFlags' | 'endsWithStop'>;
}

export interface StartedApp<S extends SettingsStore> {
  app: App;
  version: string;
  dataDir: string;
  /** The saved settings (the entry point may write them), and what the app reads. */
  saved: SettingsStore;
  settings: S;
  secrets: SecretStore;
  /** What start-up has to tell the person (no keychain, damaged settings reset); each entry point says it its way. */
  notices: string[];
}

/**
 * The one start-up of every entry point (the desktop app, browser mode, `oi`, `oi mcp`) and of the
 * tests' harness: the data folder, the settings, the keychain, the version and createApp, in one
 * place so that none of them can differ. The keychain's probe (a D-Bus round trip) runs while the
 * settings load.
 */
export async function startApp<S extends SettingsStore = SettingsStore>(opts: StartAppOptions<S>): Promise<StartedApp<S>> {
  const opening = opts.openSecrets();
  const root = opts.packageRoot ?? packageRoot();
  const dataDir = opts.dataDir ?? defaultAppDataDir();
  mkdirSync(dataDir, { recursive: true });
  // A pyenv shim's probe (~0.4 s) is asked once, not at every start (kept-probes.ts; the data folder is sealed from the sandbox).
  Languages.keepProbesIn(path.join(dataDir, 'probe-cache.json'));
  const saved = openNodeSettingsStore({ dir: dataDir });
  // Without a wrapper S is SettingsStore itself (the default type argument).
  const settings = opts.settings ? opts.settings(saved) : (saved as S);
  const secrets = await opening;
  const secretNotices = secrets.notice ? [secrets.notice] : [];
  const version = appVersion(root);
  const app = createApp({
    ...opts.app,
    dataDir,
    settings,
    secrets: secrets.store,
    notices: secretNotices,
    resourcesDir: opts.resourcesDir ?? path.join(root, 'resources'),
    version,
  });
  return {
    app,
    version,
    dataDir,
    saved,
    settings,
    secrets: secrets.store,
    notices: [...secretNotices, ...(saved.notice ? [saved.notice] : [])],
  };
}

/** The keychain as the desktop app and browser mode open it: the library's reason goes to the log. */
export async function openWindowedSecrets(): Promise<OpenedSecretStore> {
  const opened = await openSecretStore();
  if (opened.reason) console.warn(`No OS keychain: ${opened.reason}`);
  return opened;
}
