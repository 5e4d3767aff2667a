import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SettingsPatch } from '@contract';
import type { App, AppOptions } from '../../src-main/core/app';
import type { LocalServerSpec } from '../../src-main/core/providers/local-servers';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import { openNodeSettingsStore } from '../../src-main/core/settings/node-settings-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { SANDBOX_CHOSEN_OFF } from './sandbox-choice';
import { createTestApp, REPO_ROOT } from './test-app';
import { workspaceLookup } from '../../src-main/server/workspace-lookup';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import type { HandlerTable } from '../../src-main/core/bridge/handler-table';
import { startBrowserServer, type BrowserServer } from '../../src-main/server/browser-server';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';

export { REPO_ROOT };
export const RENDERER_DIR = path.join(REPO_ROOT, 'out', 'renderer');

export interface AppUnderTest {
  app: App;
  llm: ScriptedLlm;
  server: BrowserServer;
  dataDir: string;
  /**
   * Stops the server and the app, and the LLM unless it was passed in. Removes the data folder unless
   * `keepData`, which defaults to true for a folder passed in (its caller owns it).
   */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * The real app in browser mode, wired like `npm run serve`, talking to the scripted LLM server
 * through the official OpenAI SDK. Nothing is mocked; only the model's replies are scripted.
 */
export interface AppUnderTestOptions {
  /** Default: an in-memory store holding a test OpenAI key. */
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** Reuse a data folder (an app restart). */
  dataDir?: string;
  /** Keep settings in <dataDir>/settings.json (conf), as `npm run serve` does. Default: memory. */
  settingsOnDisk?: boolean;
  /** Default: the real ones (Ollama's and LM Studio's ports). */
  localServers?: LocalServerSpec[];
  /** Reuse a scripted model server (a restart keeps the same one). */
  llm?: ScriptedLlm;
  /** Start-up notices, as `npm run serve` passes them (the no-keychain sentence…). */
  notices?: string[];
  /** Another build of the renderer (the UI bench's anchor). Default: out/renderer. */
  rendererDir?: string;
  /** Open the approval endpoint `oi mcp` asks through, as the desktop app and `npm run serve` do. Default: off. */
  mcpApprovalEndpoint?: boolean;
  /**
   * Leave the sandbox at the product's default (on where bubblewrap works, not chosen). Default:
   * false, and the app starts with the sandbox chosen off unless the patch names `sandbox`: most
   * tests are about something else, and their cells reach files and servers outside a workspace.
   * The default itself is held by test/integration/sandbox/sandbox-default.test.ts.
   */
  sandboxDefault?: boolean;
  /** Where computer use finds the screen (an Xvfb's DISPLAY). Default: none, so it is not available. */
  screenEnv?: NodeJS.ProcessEnv;
  /**
   * Entries the desktop shell answers in place of the core's (src-main/electron/: its update feed…), for
   * the window's behaviour with them, in Chromium over browser mode's transport.
   */
  shellHandlers?: (app: App) => Partial<HandlerTable>;
  /** The `oi` the Schedules screen's tasks run, and the environment the OS scheduler is asked in. */
  schedules?: AppOptions['schedules'];
  /** Send the page cells whole, as before core/bridge/page-cells.ts (the UI bench's "before"). */
  wholeCells?: boolean;
}

export async function startAppUnderTest(settingsPatch: SettingsPatch = {}, options: AppUnderTestOptions = {}): Promise<AppUnderTest> {
  const rendererDir = options.rendererDir ?? RENDERER_DIR;
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`the renderer is not built (${rendererDir}): run \`npm run build\` first (npm test does)`);
  }
  const ownLlm = !options.llm;
  const llm = options.llm ?? (await startScriptedLlm());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oi-e2e-'));
  mkdirSync(dataDir, { recursive: true });
  let secrets = options.secrets;
  if (!secrets) {
    secrets = new MemorySecretStore();
    await secrets.set('provider:openai', 'sk-test-e2e');
  }
  const sandbox = options.sandboxDefault || settingsPatch.sandbox ? {} : SANDBOX_CHOSEN_OFF;
  const patch: SettingsPatch = { provider: 'openai', baseUrl: llm.openaiBaseUrl, model: 'gpt-test', ...sandbox, ...settingsPatch };
  const settings = options.settingsOnDisk ? openNodeSettingsStore({ dir: dataDir }) : new MemorySettingsStore(patch);
  // Settings on disk start from the file: the test's patch applies only to a fresh one.
  if (options.settingsOnDisk && !options.dataDir) settings.update(patch);
  const app = createTestApp({
    dataDir,
    settings,
    secrets,
    env: options.env ?? {},
    localServers: options.localServers,
    notices: options.notices,
    mcpApprovalEndpoint: options.mcpApprovalEndpoint,
    screenEnv: options.screenEnv ?? {},
    // Never this machine's systemd or launchd (test-app.ts's default): a test's task, the handler fuzz's too, is the app's own.
    ...(options.schedules ? { schedules: options.schedules } : {}),
  });
  const server = await startBrowserServer({
    dispatch: createDispatcher({ ...app.handlers, ...options.shellHandlers?.(app) }),
    events: app.events,
    rendererDir,
    workspaceOf: workspaceLookup(app.context.agent),
    wholeCells: options.wholeCells,
  });
  return {
    app,
    llm,
    server,
    dataDir,
    async close({ keepData = options.dataDir !== undefined } = {}) {
      await server.close();
      await app.dispose();
      if (ownLlm) await llm.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
