import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { newConversation, sendMessage } from '../support/ui-harness';

// Skills in the window (docs/agent.md#skills): Settings → Skills installs one from a folder and lists
// it as offered to the model (a folder that is no skill is refused, naming why); in the conversation
// the model's use of it is one line, "Using skill brand-colors", not a code cell; so is a note it saves
// to memory, which Settings → Memory then shows and edits.

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/skills');

describe('skills in the window', () => {
  const ui = useUiApp();

  it('installs a skill from a folder in Settings, lists it, and shows its use in the conversation as one line; a note saved to memory too, edited in Settings', async () => {
    const p = ui.page;
    await p.getByRole('button', { name: 'Settings' }).click();
    const section = p.getByTestId('skills-section');
    const field = section.getByRole('textbox', { name: 'Skill folder or .zip' });
    await field.fill(path.join(FIXTURES, 'README.md'));
    await section.getByRole('button', { name: 'Install', exact: true }).click();
    await expectText(section.getByTestId('skill-install-result'), /The skill was not installed: .*README\.md/);
    await field.fill(path.join(FIXTURES, 'brand-colors'));
    await section.getByRole('button', { name: 'Install', exact: true }).click();
    await expectText(section.getByTestId('skill-install-result'), 'Installed brand-colors.');
    await expectText(section.getByTestId('skill-row').first(), /brand-colors\s*yours — offered to the model/);

    await newConversation(p);
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'u1', name: 'load_skill', arguments: { name: 'brand-colors' } }] },
      { kind: 'tool', calls: [{ id: 'u2', name: 'save_memory', arguments: { note: 'Charts use the brand colours.' } }] },
      { kind: 'text', text: 'Primary is blue.' },
    );
    await sendMessage(p, 'which colour?');
    await expectText(p.getByTestId('assistant-message').last(), 'Primary is blue.', 20_000);
    await expectText(p.getByTestId('skill-use').first(), 'Using skill brand-colors');
    // A note saved to memory is shown as it is saved (docs/agent.md#memory)…
    await expectText(p.getByTestId('skill-use').last(), 'Remembered: Charts use the brand colours.');
    expect(await p.getByTestId('skill-use').count()).toBe(2);

    // …and read and edited in Settings → Memory, which writes the file.
    await p.getByRole('button', { name: 'Settings' }).click();
    const notes = p.getByTestId('memory-section').getByRole('textbox', { name: 'Memory notes' });
    await expect.poll(() => notes.inputValue(), { timeout: 20_000 }).toBe('- Charts use the brand colours.\n');
    await notes.fill('- Charts use the brand colours, darker.\n');
    await p.getByTestId('memory-section').getByRole('button', { name: 'Save notes' }).click();
    await expectText(p.getByTestId('memory-section').getByRole('status'), 'Saved.');
    expect(readFileSync(path.join(ui.aut.dataDir, 'memory.md'), 'utf8')).toBe('- Charts use the brand colours, darker.\n');
  });
});
