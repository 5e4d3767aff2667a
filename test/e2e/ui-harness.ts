import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SettingsPatch } from '@contract';
import type { App } from '../../src-main/core/app';
import { bootstrapApp } from '../../src-main/core/bootstrap';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import type { LocalServerSpec } from '../../src-main/core/providers/local-servers';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import { openConfSettingsStore } from '../../src-main/core/settings/conf-settings-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { startBrowserServer, type BrowserServer } from '../../src-main/server/browser-server';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';
import { REPO_ROOT, RENDERER_DIR } from '../support/app-under-test';

// The UI tests' app: like test/support/app-under-test.ts (real core, real processes, scripted model),
// with the knobs those tests need — settings on disk to survive a restart, a real keychain, an empty
// environment for first run, and local-server ports pointed at the scripted server.

export const SHOTS = path.join(REPO_ROOT, 'test-results');

export interface UiAppOptions {
  settings?: SettingsPatch;
  /** Keep settings in <dataDir>/settings.json (conf), as `npm run serve` does. Default: memory. */
  settingsOnDisk?: boolean;
  /** Reuse a data folder (a restart). */
  dataDir?: string;
  /** Default: memory, holding an OpenAI key for the scripted server. */
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  localServers?: LocalServerSpec[];
  /** Reuse a scripted model server (a restart keeps the same one). */
  llm?: ScriptedLlm;
}

export interface UiApp {
  app: App;
  llm: ScriptedLlm;
  server: BrowserServer;
  dataDir: string;
  /** Stops the server and the app; removes the data folder unless `keepData`. Closes the LLM unless it was passed in. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export async function startUiApp(opts: UiAppOptions = {}): Promise<UiApp> {
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error(`the renderer is not built (${RENDERER_DIR}): run \`npx electron-vite build\` first`);
  const ownLlm = !opts.llm;
  const llm = opts.llm ?? (await startScriptedLlm());
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oi-ui-'));
  mkdirSync(dataDir, { recursive: true });
  const secrets = opts.secrets ?? new MemorySecretStore();
  if (!opts.secrets) await secrets.set('provider:openai', 'sk-test-ui-e2e');
  const patch: SettingsPatch = { provider: 'openai', baseUrl: llm.openaiBaseUrl, model: 'gpt-test', ...opts.settings };
  const settings = opts.settingsOnDisk ? openConfSettingsStore({ dir: dataDir }) : new MemorySettingsStore(patch);
  // Settings on disk start from the file: the test's patch applies only to a fresh one.
  if (opts.settingsOnDisk && !opts.dataDir) settings.update(patch);
  const app = bootstrapApp({
    dataDir,
    settings,
    secrets,
    resourcesDir: path.join(REPO_ROOT, 'resources'),
    version: 'test',
    env: opts.env ?? {},
    localServers: opts.localServers ?? [],
  });
  const server = await startBrowserServer({ dispatch: createDispatcher(app.handlers), events: app.events, rendererDir: RENDERER_DIR });
  return {
    app,
    llm,
    server,
    dataDir,
    async close(closeOpts = {}) {
      await server.close();
      await app.dispose();
      if (ownLlm) await llm.close();
      if (!closeOpts.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page on the app, with every WebSocket frame the renderer received kept for assertions. */
export async function openApp(browser: Browser, aut: UiApp, viewport = { width: 1400, height: 860 }): Promise<{ page: Page; frames: string[] }> {
  const page = await browser.newPage({ viewport });
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
  page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
  // CSP refusals and React warnings show up here; a clean run prints nothing.
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') console.error(`page console ${msg.type()}: ${msg.text()}`);
  });
  await page.goto(aut.server.launchUrl);
  // Keyboard shortcuts and the first screen exist only once the app has loaded its state.
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, frames };
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

export async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New conversation' }).click();
}

/** The id and workspace of the conversation the page shows (the newest one). */
export async function currentConversation(aut: UiApp): Promise<{ id: string; workspace: string }> {
  const [conv] = await aut.app.handlers['conversation.list']({}, { transport: 'websocket' });
  if (!conv) throw new Error('no conversation yet');
  return { id: conv.id, workspace: conv.workspace };
}

export interface OpenAiBody {
  model: string;
  messages: Array<{ role: string; content: string | null | Array<{ type: string; text?: string; image_url?: { url: string } }>; tool_call_id?: string }>;
}

/** The tool result the model received for a call id, in the n-th chat request. */
export function toolResult(llm: ScriptedLlm, requestIndex: number, callId: string): string {
  const body = llm.requests.filter((r) => r.path === '/v1/chat/completions')[requestIndex]?.body as OpenAiBody | undefined;
  const message = body?.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}
