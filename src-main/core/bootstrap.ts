import { createApp, type App } from './app';
import { createExecService } from './exec/exec-service';
import type { SecretStore } from './secrets/secret-store';
import type { SettingsStore } from './settings/settings-store';

export interface BootstrapOptions {
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Folder holding runners/ (resources/ in the repo, process.resourcesPath in the packaged app). */
  resourcesDir: string;
  version: string;
  /** Environment variables that may hold provider keys (read-only source after the keychain). */
  env?: NodeJS.ProcessEnv;
}

const ENV_KEYS: Record<string, string> = {
  'provider:openai': 'OPENAI_API_KEY',
  'provider:anthropic': 'ANTHROPIC_API_KEY',
  'provider:openai-compatible': 'OPENAI_COMPATIBLE_API_KEY',
};

/** Builds the app from real parts: the same wiring for the desktop shell, browser mode and the CLI. */
export function bootstrapApp(opts: BootstrapOptions): App {
  const env = opts.env ?? process.env;
  const keys = {
    async get(account: string): Promise<string | null> {
      const stored = await opts.secrets.get(account);
      if (stored) return stored;
      const name = ENV_KEYS[account];
      return (name && env[name]) || null;
    },
  };
  const exec = createExecService({ resourcesDir: opts.resourcesDir });
  return createApp({ dataDir: opts.dataDir, settings: opts.settings, keys, exec, version: opts.version });
}
