import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWheel } from '../support/package-registries';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { shot } from '../support/ui-harness';
import { executeThenSay } from '../support/scripted-replies';

describe('installing a missing package from the chat', () => {
  let root: string;
  let wheels: string;
  let venv: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'oi-ui-install-'));
    wheels = path.join(root, 'wheels');
    await buildWheel(wheels, 'oi_ui_pkg', 777);
    venv = path.join(root, 'venv');
    await promisify(execFile)('/usr/bin/python3', ['-m', 'venv', venv]);
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));
  // Registered after the hook above, so the app starts once the wheel and the venv exist.
  const ui = useUiApp(
    () => ({
      settings: {
        exec: { pythonPath: path.join(venv, 'bin', 'python'), env: { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' } },
      },
    }),
    { start: 'once', viewport: { width: 1280, height: 800 } },
  );

  it('shows the exact install command on the cell, installs on Install, and the re-run succeeds', async () => {
    ui.aut.llm.enqueue(
      ...executeThenSay(
        { id: 'call_ui_pkg', language: 'python', code: 'import oi_ui_pkg\nprint("value", oi_ui_pkg.VALUE)' },
        'The package printed its value.',
      ),
    );
    await ui.page
      .getByRole('button', { name: /New conversation/ })
      .first()
      .click();
    await ui.page.getByRole('textbox', { name: 'Message' }).fill('use oi_ui_pkg');
    await ui.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();

    const prompt = ui.page.getByTestId('install-prompt');
    await expectText(prompt, /pip install oi_ui_pkg/, 60_000);
    await expectText(prompt, "No module named 'oi_ui_pkg'");
    // While the question is open it is the person's turn: no running clock, on the cell or below.
    await expectText(ui.page.getByTestId('cell-status'), 'waiting for you');
    expect(await ui.page.getByTestId('cell-elapsed').count()).toBe(0);
    await expectText(ui.page.getByTestId('working'), 'Waiting for you — install oi_ui_pkg?');
    await shot(ui.page, 'ui-install-waiting.png');
    await prompt.getByRole('button', { name: 'Install', exact: true }).click();
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'done', 60_000);
    await expectText(ui.page.getByTestId('cell'), 'value 777');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'printed its value', 30_000);
    expect(await ui.page.getByTestId('install-prompt').count()).toBe(0);

    // The failed first attempt is folded under one line; the re-run is the result.
    const attempt = ui.page.getByTestId('first-attempt');
    await expectText(
      attempt.locator(':scope > summary'),
      "first attempt: ModuleNotFoundError: No module named 'oi_ui_pkg' — installed oi_ui_pkg, ran again",
    );
    expect(await attempt.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await attempt.getByTestId('output-error').isVisible()).toBe(false);
    const result = ui.page
      .getByTestId('cell')
      .locator(':scope > [data-testid="terminal"], :scope [data-testid="terminal"]:not([data-testid="first-attempt"] *)');
    expect(await result.last().textContent()).toContain('value 777');
    await attempt.locator(':scope > summary').click();
    await expectText(attempt.getByTestId('output-error'), "ModuleNotFoundError: No module named 'oi_ui_pkg'");
    await shot(ui.page, 'ui-install-first-attempt.png');
    // The saved conversation keeps the split, so a reload shows the same.
    await ui.page.reload();
    await ui.page.waitForSelector('body[data-ready="true"]');
    await ui.page.getByRole('button', { name: 'use oi_ui_pkg' }).click();
    await expectText(ui.page.getByTestId('first-attempt').locator(':scope > summary'), 'first attempt: ModuleNotFoundError');
  });
});
