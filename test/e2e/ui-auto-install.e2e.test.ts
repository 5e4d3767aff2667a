import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWheel } from '../integration/auto-install/support/packages';
import { startAppUnderTest, type AppUnderTest } from '../support/app-under-test';
import { launchChromium } from '../support/browser';
import { expectAttribute, expectText } from '../support/page-expect';

describe('installing a missing package from the chat', () => {
  let root: string;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let aut: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'oi-ui-install-'));
    const wheels = path.join(root, 'wheels');
    await buildWheel(wheels, 'oi_ui_pkg', 777);
    const venv = path.join(root, 'venv');
    await promisify(execFile)('/usr/bin/python3', ['-m', 'venv', venv]);
    aut = await startAppUnderTest({
      exec: { pythonPath: path.join(venv, 'bin', 'python'), env: { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' } },
    });
    chromium = await launchChromium();
    page = await chromium.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(aut.server.launchUrl);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  });
  afterAll(async () => {
    await chromium?.close();
    await aut?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('shows the exact install command on the cell, installs on Install, and the re-run succeeds', async () => {
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_ui_pkg', name: 'execute', arguments: { language: 'python', code: 'import oi_ui_pkg\nprint("value", oi_ui_pkg.VALUE)' } }] },
      { kind: 'text', text: 'The package printed its value.' },
    );
    await page.getByRole('button', { name: /New conversation/ }).first().click();
    await page.getByRole('textbox', { name: 'Message' }).fill('use oi_ui_pkg');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(page.getByTestId('cell'), 'data-status', 'awaiting-approval');
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    const prompt = page.getByTestId('install-prompt');
    await expectText(prompt, /pip install oi_ui_pkg/, 60_000);
    await expectText(prompt, "No module named 'oi_ui_pkg'");
    await prompt.getByRole('button', { name: 'Install', exact: true }).click();
    await expectAttribute(page.getByTestId('cell'), 'data-status', 'done', 60_000);
    await expectText(page.getByTestId('cell'), 'value 777');
    await expectText(page.getByTestId('assistant-message').last(), 'printed its value', 30_000);
    expect(await page.getByTestId('install-prompt').count()).toBe(0);
  });
});
