import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWheel } from '../integration/auto-install/support/packages';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from './ui-fixture';

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
    () => ({ settings: { exec: { pythonPath: path.join(venv, 'bin', 'python'), env: { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' } } } }),
    { start: 'once', viewport: { width: 1280, height: 800 } },
  );

  it('shows the exact install command on the cell, installs on Install, and the re-run succeeds', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_ui_pkg', name: 'execute', arguments: { language: 'python', code: 'import oi_ui_pkg\nprint("value", oi_ui_pkg.VALUE)' } }] },
      { kind: 'text', text: 'The package printed its value.' },
    );
    await ui.page.getByRole('button', { name: /New conversation/ }).first().click();
    await ui.page.getByRole('textbox', { name: 'Message' }).fill('use oi_ui_pkg');
    await ui.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'awaiting-approval');
    await ui.page.getByRole('button', { name: 'Run', exact: true }).click();

    const prompt = ui.page.getByTestId('install-prompt');
    await expectText(prompt, /pip install oi_ui_pkg/, 60_000);
    await expectText(prompt, "No module named 'oi_ui_pkg'");
    await prompt.getByRole('button', { name: 'Install', exact: true }).click();
    await expectAttribute(ui.page.getByTestId('cell'), 'data-status', 'done', 60_000);
    await expectText(ui.page.getByTestId('cell'), 'value 777');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'printed its value', 30_000);
    expect(await ui.page.getByTestId('install-prompt').count()).toBe(0);
  });
});
