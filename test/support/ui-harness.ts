import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SettingsPatch } from '@contract';
import type { ScriptedLlm } from '../fixtures/llm-server';
import { REPO_ROOT, startAppUnderTest, type AppUnderTest, type AppUnderTestOptions } from './app-under-test';
import { expectText } from './page-expect';
import { watchPageProblems } from './page-problems';

// The UI tests' app: test/support/app-under-test.ts with the settings among the options, and no local
// model servers unless a test names them (so first run never finds one running on this machine).

export const SHOTS = path.join(REPO_ROOT, 'test-results');

/**
 * A picture of the page for a person to look at, in test-results/, taken when OI_SHOTS=1. Nothing
 * asserts on these, and the ~70 of them cost Chromium about 13 CPU-seconds a run (CONTRIBUTING.md, the
 * cost section); a failed test's page is pictured whatever the variable says (ui-fixture.ts).
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.OI_SHOTS !== '1') return;
  await page.screenshot({ path: path.join(SHOTS, name), ...opts });
}

export interface UiAppOptions extends AppUnderTestOptions {
  settings?: SettingsPatch;
}

export type UiApp = AppUnderTest;

export function startUiApp({ settings, ...options }: UiAppOptions = {}): Promise<UiApp> {
  return startAppUnderTest(settings, { ...options, localServers: options.localServers ?? [] });
}

/** A page on the app, with every WebSocket frame the renderer received kept for assertions. */
export async function openApp(
  browser: Browser,
  aut: UiApp,
  viewport = { width: 1400, height: 860 },
  /** Runs before the page loads (e.g. page.routeWebSocket, which must be in place before the socket opens). */
  beforeGoto?: (page: Page) => Promise<void>,
): Promise<{ page: Page; frames: string[]; problems: string[] }> {
  // Reduced motion: a turning spinner repaints every frame, in every process of the browser (~0.1
  // CPU-second a second while one shows); the app's own answer to that preference is a still one.
  const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
  await beforeGoto?.(page);
  const frames: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))),
  );
  // Page errors and CSP violations fail the test (ui-fixture.ts); the console's errors and React
  // warnings are shown, a clean run prints nothing.
  const problems = await watchPageProblems(page);
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') console.error(`page console ${msg.type()}: ${msg.text()}`);
  });
  await page.goto(aut.server.launchUrl);
  // Keyboard shortcuts and the first screen exist only once the app has loaded its state.
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, frames, problems };
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

export async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New conversation' }).click();
}

/**
 * The id and workspace of the conversation the page shows: the newest one made, listed or not (one that
 * has only attachments so far is not listed until its first message).
 */
export async function currentConversation(aut: UiApp): Promise<{ id: string; workspace: string }> {
  const dir = path.join(aut.dataDir, 'conversations');
  const ids = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
        .map((n) => n.slice(0, -'.json'.length))
    : [];
  const all = await Promise.all(ids.map((id) => aut.app.context.conversations.get(id)));
  const newest = all.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  if (!newest) throw new Error('no conversation yet');
  return { id: newest.id, workspace: newest.workspace };
}

export interface OpenAiBody {
  model: string;
  messages: Array<{
    role: string;
    content: string | null | Array<{ type: string; text?: string; image_url?: { url: string } }>;
    tool_call_id?: string;
  }>;
}

/** The tool result the model received for a call id, in the n-th chat request. */
export function toolResult(llm: ScriptedLlm, requestIndex: number, callId: string): string {
  const body = llm.requests.filter((r) => r.path === '/v1/chat/completions')[requestIndex]?.body as OpenAiBody | undefined;
  const message = body?.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

/** Says hello in the page's conversation and waits for the answer, so that its workspace exists: that workspace. */
export async function workspaceAfterHello(ui: { aut: UiApp; page: Page }): Promise<string> {
  ui.aut.llm.enqueue({ kind: 'text', text: 'Ready.' });
  await sendMessage(ui.page, 'Hello');
  await expectText(ui.page.getByTestId('assistant-message').last(), 'Ready.');
  return (await currentConversation(ui.aut)).workspace;
}

/** A new conversation with one exchange, then moved to `folder` through "Change folder…". */
export async function newConversationIn(ui: { aut: UiApp; page: Page }, folder: string): Promise<void> {
  const p = ui.page;
  await newConversation(p);
  ui.aut.llm.enqueue({ kind: 'text', text: 'Hello.' });
  await sendMessage(p, 'hi');
  await expectText(p.getByTestId('assistant-message').last(), 'Hello.', 20_000);
  await p.getByRole('button', { name: 'Change folder…' }).click();
  const field = p.getByRole('textbox', { name: 'Folder path' });
  await field.fill(folder);
  await field.press('Enter');
}
