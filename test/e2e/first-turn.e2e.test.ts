import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { expectAttribute, expectText } from '../support/page-expect';
import { REPO_ROOT, startAppUnderTest, type AppUnderTest } from '../support/app-under-test';

const SHOTS = path.join(REPO_ROOT, 'test-results');

interface OpenAiBody {
  messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
  tools?: unknown[];
}

describe('the first turn, end to end in Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let aut: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    chromium = await launchChromium();
    browser = chromium.browser;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await chromium?.close();
  });
  beforeEach(async () => {
    aut = await startAppUnderTest();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(aut.server.launchUrl);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  });
  afterEach(async () => {
    await page?.close();
    await aut?.close();
  });

  const startTurn = async (message: string) => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(page.getByTestId('cell'), 'data-status', 'awaiting-approval');
  };

  it('streams the code, runs it in bash on Run, and gives the output back to the model', async () => {
    aut.llm.enqueue(
      { kind: 'tool', text: 'Let me look at the workspace.', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'shell', code: 'echo "hello from $(basename "$PWD")"; echo $((6 * 7))' } }] },
      { kind: 'text', text: 'The shell printed **42**, so arithmetic works.' },
    );
    await startTurn('Check that the shell works');
    await expectText(page.getByTestId('cell-code'), 'echo $((6 * 7))');

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectAttribute(page.getByTestId('cell'), 'data-status', 'done', 20_000);
    await expectText(page.getByTestId('terminal'), '42');
    await expectText(page.getByTestId('assistant-message').last(), 'The shell printed 42', 15_000);
    await page.screenshot({ path: path.join(SHOTS, 'first-turn.png') });

    expect(aut.llm.requests).toHaveLength(2);
    const second = aut.llm.requests[1]?.body as OpenAiBody;
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_1');
    expect(toolMessage?.content).toContain('42');
    const conv = (await aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0];
    expect(toolMessage?.content).toContain(`hello from ${path.basename(conv?.workspace ?? '')}`);
  });

  it('tells the model the user declined when the cell is skipped, and runs nothing', async () => {
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_skip', name: 'execute', arguments: { language: 'shell', code: 'touch should-not-exist' } }] },
      { kind: 'text', text: 'Understood, I will not run it.' },
    );
    await startTurn('Make a file');
    await page.getByRole('button', { name: 'Skip' }).click();
    await expectAttribute(page.getByTestId('cell'), 'data-status', 'skipped');
    await expectText(page.getByTestId('assistant-message').last(), 'I will not run it');

    const second = aut.llm.requests[1]?.body as OpenAiBody;
    const toolMessage = second.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_skip');
    expect(toolMessage?.content).toMatch(/declined/);
    const conv = (await aut.app.handlers['conversation.list']({}, { transport: 'websocket' }))[0];
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(conv?.workspace ?? '/nonexistent', 'should-not-exist'))).toBe(false);
  });
});
