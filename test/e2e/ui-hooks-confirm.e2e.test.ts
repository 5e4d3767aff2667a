import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveProfile } from '../../src-main/core/profiles/profile-store';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, newConversation, newConversationIn, sendMessage } from '../support/ui-harness';

// Hooks are the person's own commands, run outside the sandbox, so none runs before the person has
// said yes in the window (docs/agent.md#profiles, #hooks). A profile with hooks is bound from the top
// bar's Profile menu only after the app's own dialog, listing its commands, is answered "use it":
// declined (Esc, or Cancel), the conversation stays unbound and the command never runs at its turn;
// confirmed, it runs at the next turn's end. A workspace's own hooks file (a cloned repository's) runs
// nothing until the person trusts the folder from the line above the conversation, which names the
// file (its text one click away) even where the folder has no AGENTS.md.

let dataDir = '';
let marker = '';

describe('hooks wait for the person in the window', () => {
  const ui = useUiApp(
    () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-ui-hooks-'));
      marker = path.join(dataDir, 'profile-hook-ran.json');
      saveProfile(dataDir, 'hooked', { hooks: { turnEnd: [{ command: `cat > '${marker}'` }] } });
      return { dataDir };
    },
    { start: 'once' },
  );

  it("a profile's hooks run only once the person confirms them in the app's dialog; declined, nothing is bound or run", async () => {
    const p = ui.page;
    await newConversation(p);
    const picker = p.getByRole('combobox', { name: 'Profile', exact: true });
    const dialog = p.getByTestId('profile-hooks-dialog');

    // Declined with Esc: the dialog goes, the menu still says no profile, the conversation is not bound.
    await picker.selectOption('hooked');
    await expectText(dialog.getByRole('list', { name: 'Hook commands' }), `cat > '${marker}'`);
    await p.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await picker.inputValue()).toBe('');
    // Cancel (which has the focus, so Enter is no too) answers the same.
    await picker.selectOption('hooked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    ui.aut.llm.enqueue({ kind: 'text', text: 'Unbound answer.' });
    await sendMessage(p, 'first');
    await expectText(p.getByTestId('assistant-message').last(), 'Unbound answer.', 20_000);
    const conv = await currentConversation(ui.aut);
    await ui.aut.app.context.agent.idle(conv.id);
    expect((await ui.aut.app.context.agent.snapshot(conv.id)).profile).toBeUndefined();
    expect(existsSync(marker)).toBe(false);

    // The twin: confirmed, the conversation is bound and the hook runs at the end of its next turn.
    await picker.selectOption('hooked');
    await dialog.getByRole('button', { name: 'Use it and run its hooks' }).click();
    await expect.poll(() => picker.inputValue()).toBe('hooked');
    expect((await ui.aut.app.context.agent.snapshot(conv.id)).profile).toBe('hooked');
    ui.aut.llm.enqueue({ kind: 'text', text: 'Bound answer.' });
    await sendMessage(p, 'second');
    await expectText(p.getByTestId('assistant-message').last(), 'Bound answer.', 20_000);
    await ui.aut.app.context.agent.idle(conv.id);
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ event: 'turnEnd', conversationId: conv.id });
  });

  it("a workspace's hooks file alone is named above the conversation and runs nothing until the person trusts the folder", async () => {
    const p = ui.page;
    const workspace = path.join(dataDir, 'cloned');
    mkdirSync(path.join(workspace, '.agents'), { recursive: true });
    const ran = path.join(workspace, 'workspace-hook-ran.json');
    const command = `cat > '${ran}'`;
    writeFileSync(path.join(workspace, '.agents', 'hooks.json'), JSON.stringify({ hooks: { turnEnd: [{ command }] } }));
    await newConversationIn(ui, workspace);

    const line = p.getByTestId('instructions-line');
    await expectText(line, `not used until you trust ${workspace}`);
    await line.getByRole('button', { name: '.agents/hooks.json' }).click();
    await expectText(p.getByTestId('instructions-text'), command);

    // The attack: a turn in the stranger's folder ends, and its hook's command does not run.
    ui.aut.llm.enqueue({ kind: 'text', text: 'Untrusted turn.' });
    await sendMessage(p, 'second');
    await expectText(p.getByTestId('assistant-message').last(), 'Untrusted turn.', 20_000);
    const conv = await currentConversation(ui.aut);
    await ui.aut.app.context.agent.idle(conv.id);
    expect(existsSync(ran)).toBe(false);

    // The twin: trusted from the line, the same hook runs at the next turn's end.
    await line.getByRole('button', { name: 'Trust this folder' }).click();
    await expect.poll(() => line.getByRole('button', { name: 'Trust this folder' }).count()).toBe(0);
    ui.aut.llm.enqueue({ kind: 'text', text: 'Trusted turn.' });
    await sendMessage(p, 'third');
    await expectText(p.getByTestId('assistant-message').last(), 'Trusted turn.', 20_000);
    await ui.aut.app.context.agent.idle(conv.id);
    expect(JSON.parse(readFileSync(ran, 'utf8'))).toMatchObject({ event: 'turnEnd', conversationId: conv.id });
    ui.aut.app.context.settings.update({ trustedFolders: [] });
  });
});
