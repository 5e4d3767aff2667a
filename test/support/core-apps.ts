import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { App } from '../../src-main/core/app';
import { createTestApp } from './test-app';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import type { SettingsStore } from '../../src-main/core/settings/settings-store';

export interface CoreApps {
  /** A fresh temp folder, removed after the test. */
  tempDir(): string;
  /** The real app (createApp) over the settings store the test chose, in a data folder of its own; no keys in its env. */
  app(settings: SettingsStore, secrets?: SecretStore): App;
}

/**
 * Apps built the way the shell, the server and the CLI build them, but without a transport: for tests
 * that call the handler table over a settings store of their choosing. What a test made is disposed
 * and removed after it.
 */
export function useCoreApps(prefix: string): CoreApps {
  const dirs: string[] = [];
  const apps: App[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.dispose()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  return {
    tempDir,
    app(settings, secrets = new MemorySecretStore()) {
      const app = createTestApp({
        dataDir: tempDir(),
        settings,
        secrets,
      });
      apps.push(app);
      return app;
    },
  };
}
