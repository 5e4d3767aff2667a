import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../../src-main/core/app';
import { createDispatcher, type Dispatcher } from '../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { openNodeSettingsStore } from '../../src-main/core/settings/node-settings-store';
import type { SettingsStore } from '../../src-main/core/settings/settings-store';
import type { CoreApps } from './core-apps';

// The Settings page's side of MCP as its tests drive it: the real app over a settings file on disk
// and an in-memory secret store, called through the real dispatcher as the page's requests are.
// Shared by the MCP settings and import tests (test/integration/mcp/).

/** A value that must stay in the secret store: never in the settings file, never in an answer. */
export const MCP_SECRET = 'ghp_secret-value-that-must-stay-in-the-keychain-1234';

export interface McpSettingsHarness {
  dispatch: Dispatcher;
  app: App;
  settings: SettingsStore;
  secrets: MemorySecretStore;
  /** Everything in the settings folder, as text (where a leaked secret would show). */
  settingsFile: () => string;
  call<T = unknown>(name: string, input: unknown): Promise<T>;
  /** The error message of a request that must be refused. */
  fail(name: string, input: unknown): Promise<string>;
}

export function mcpSettingsHarness(core: CoreApps): McpSettingsHarness {
  const settingsDir = core.tempDir();
  const settings = openNodeSettingsStore({ dir: settingsDir });
  const secrets = new MemorySecretStore();
  const app = core.app(settings, secrets);
  const dispatch = createDispatcher(app.handlers);
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
    return reply.result as T;
  };
  const fail = async (name: string, input: unknown): Promise<string> => {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (reply.ok) throw new Error(`${name} was accepted`);
    return reply.error.message;
  };
  const settingsFile = () =>
    fs
      .readdirSync(settingsDir)
      .map((f) => fs.readFileSync(path.join(settingsDir, f), 'utf8'))
      .join('\n');
  return { dispatch, app, settings, secrets, settingsFile, call, fail };
}
