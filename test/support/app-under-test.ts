import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SettingsPatch } from '@contract';
import { bootstrapApp } from '../../src-main/core/bootstrap';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import type { App } from '../../src-main/core/app';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { startBrowserServer, type BrowserServer } from '../../src-main/server/browser-server';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = path.join(REPO_ROOT, 'out', 'renderer');

export interface AppUnderTest {
  app: App;
  llm: ScriptedLlm;
  server: BrowserServer;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app in browser mode, wired like `npm run serve`, talking to the scripted LLM server
 * through the official OpenAI SDK. Nothing is mocked; only the model's replies are scripted.
 */
export interface AppUnderTestOptions {
  /** Default: an in-memory store holding a test OpenAI key. */
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** Reuse a data folder (an app restart); the caller owns it, so close() leaves it in place. */
  dataDir?: string;
}

export async function startAppUnderTest(settings: SettingsPatch = {}, options: AppUnderTestOptions = {}): Promise<AppUnderTest> {
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`the renderer is not built (${RENDERER_DIR}): run \`npm run build\` first (npm test does)`);
  }
  const llm = await startScriptedLlm();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oi-e2e-'));
  let secrets = options.secrets;
  if (!secrets) {
    secrets = new MemorySecretStore();
    await secrets.set('provider:openai', 'sk-test-e2e');
  }
  const app = bootstrapApp({
    dataDir,
    settings: new MemorySettingsStore({ provider: 'openai', baseUrl: llm.openaiBaseUrl, model: 'gpt-test', ...settings }),
    secrets,
    resourcesDir: path.join(REPO_ROOT, 'resources'),
    version: 'test',
    env: options.env ?? {},
  });
  const server = await startBrowserServer({ dispatch: createDispatcher(app.handlers), events: app.events, rendererDir: RENDERER_DIR });
  return {
    app,
    llm,
    server,
    dataDir,
    async close() {
      await server.close();
      await app.dispose();
      await llm.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
