import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { clonedRepo } from '../support/cloned-repo';
import { newConversationIn } from '../support/ui-harness';

// The line above the conversation names the AGENTS.md files in effect, each one click from its text;
// a workspace's are struck through (not given to the model) until the person trusts the folder.

describe('project instructions in the window', () => {
  const ui = useUiApp();
  let repo: string;

  beforeAll(() => {
    ({ repo } = clonedRepo('oi-ui-agents-', 'repo', { 'AGENTS.md': 'Use pandas for every table.\n' }));
    mkdirSync(path.join(repo, 'work'));
  });
  afterAll(() => rmSync(path.dirname(repo), { recursive: true, force: true }));

  it('names the files, shows a file’s text on click, and trusts the folder on request', async () => {
    const p = ui.page;
    await newConversationIn(ui, path.join(repo, 'work'));

    const line = p.getByTestId('instructions-line');
    await expectText(line, `not used until you trust ${repo}`);
    const file = line.getByRole('button', { name: 'AGENTS.md' });
    expect(await file.getAttribute('title')).toBe(`${path.join(repo, 'AGENTS.md')} (not given to the model)`);

    await file.click();
    await expectText(p.getByTestId('instructions-text'), 'Use pandas for every table.');

    await line.getByRole('button', { name: 'Trust this folder' }).click();
    await expect.poll(() => file.getAttribute('title')).toBe(path.join(repo, 'AGENTS.md'));
    expect(await line.getByRole('button', { name: 'Trust this folder' }).count()).toBe(0);
    expect(ui.aut.app.context.settings.get().trustedFolders).toEqual([repo]);
  });
});
