import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installed } from '../support/installed';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage, toolResult, shot } from '../support/ui-harness';

// Programs that ask for input, in the chat (docs/exec.md#input): the cell says "waiting for input"
// with the program's prompt and a field; typing an answer lets the program go on, in every
// persistent language and the shell. A password is masked, and afterwards is nowhere: not in the
// page, the conversation file, the run logs, the exports or anything the model was sent.

const call = (id: string, language: string, code: string) => ({ id, name: 'execute', arguments: { language, code } });

/** Every file under a folder, as text (the app's data folder, a workspace's .oi logs). */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  const found: Array<{ file: string; text: string }> = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const info = statSync(full);
      if (info.isDirectory()) walk(full);
      else if (info.isFile() && info.size < 64 * 1024 * 1024) found.push({ file: full, text: readFileSync(full, 'latin1') });
    }
  };
  walk(dir);
  return found;
}

describe('programs that ask for input, in the chat', () => {
  const ui = useUiApp({ settings: { autoRun: true } }, { newConversation: true, start: 'once' });
  const cell = () => ui.page.getByTestId('cell').last();
  const prompt = () => cell().getByTestId('input-prompt');

  const languages = [
    { language: 'python', code: 'name = input("Your name? ")\nprint(f"hello {name}")' },
    {
      language: 'javascript',
      code: 'const rl = require("readline/promises").createInterface({ input: process.stdin, output: process.stdout });\nconst name = await rl.question("Your name? ");\nrl.close();\nconsole.log(`hello ${name}`);',
    },
    { language: 'shell', code: 'read -r -p "Your name? " name; echo "hello $name"' },
    ...(installed('ruby') ? [{ language: 'ruby', code: 'print "Your name? "\nname = gets.chomp\nputs "hello #{name}"' }] : []),
    ...(installed('Rscript') ? [{ language: 'r', code: 'name <- readline("Your name? ")\ncat(paste0("hello ", name, "\\n"))' }] : []),
  ];
  for (const [i, { language, code }] of languages.entries()) {
    it(`${language}: the cell asks, the answer typed in its field reaches the program`, async () => {
      const id = `call_in_${language}`;
      ui.aut.llm.enqueue({ kind: 'tool', calls: [call(id, language, code)] }, { kind: 'text', text: `Greeted in ${language}.` });
      await sendMessage(ui.page, `Greet me in ${language}`);
      await expectText(prompt(), 'waiting for input', 30_000);
      await expectText(prompt().getByTestId('input-question'), 'Your name?');
      await expectText(cell().getByTestId('cell-status'), 'waiting for input');
      if (i === 0) await shot(ui.page, 'ui-input-waiting.png');
      await prompt().getByRole('textbox', { name: 'Input' }).fill(`Ada ${language}`);
      await prompt().getByRole('textbox', { name: 'Input' }).press('Enter');
      await expectAttribute(cell(), 'data-status', 'done', 30_000);
      await expectText(cell().getByTestId('terminal'), `hello Ada ${language}`);
      expect(await cell().getByTestId('input-prompt').count()).toBe(0);
      await expectText(ui.page.getByTestId('assistant-message').last(), `Greeted in ${language}.`);
      expect(toolResult(ui.aut.llm, ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').length - 1, id)).toContain(
        'the user typed an answer',
      );
    });
  }

  it('a keypress prompt is answered by typing into the live terminal; End input ends a read of all stdin', async () => {
    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [call('call_key', 'shell', 'read -r -n 1 -p "Press y to go on: " key; echo; echo "key was $key"')] },
      { kind: 'text', text: 'Key read.' },
    );
    await sendMessage(ui.page, 'Ask me for a key');
    await expectText(prompt(), 'reads single keys', 30_000);
    await cell().getByTestId('terminal').click();
    await ui.page.keyboard.type('y');
    await expectAttribute(cell(), 'data-status', 'done', 30_000);
    await expectText(cell().getByTestId('terminal'), 'key was y');

    ui.aut.llm.enqueue(
      { kind: 'tool', calls: [call('call_eof', 'python', 'import sys\nlines = sys.stdin.readlines()\nprint(len(lines), "lines read")')] },
      { kind: 'text', text: 'Read.' },
    );
    await sendMessage(ui.page, 'Read my lines');
    await expectText(prompt(), 'waiting for input', 30_000);
    await prompt().getByRole('textbox', { name: 'Input' }).fill('first line');
    await prompt().getByRole('button', { name: 'Send' }).click();
    await expectText(cell().getByTestId('terminal'), 'first line');
    await expectText(prompt(), 'waiting for input');
    await prompt().getByRole('button', { name: 'End input' }).click();
    await expectAttribute(cell(), 'data-status', 'done', 30_000);
    await expectText(cell().getByTestId('terminal'), '1 lines read');
  });

  it('a password is masked, shown as "password sent", and kept nowhere', async () => {
    const secret = 'Tr0ub4dor-and-3-e2e';
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [call('call_pw', 'python', 'import getpass\npw = getpass.getpass("Password: ")\nprint("got", len(pw), "characters")')],
      },
      { kind: 'tool', calls: [call('call_pw_sh', 'shell', 'read -r -s -p "Passphrase: " pass; echo; echo "${#pass} characters"')] },
      { kind: 'text', text: 'Both secrets arrived.' },
    );
    await sendMessage(ui.page, 'Ask me for my passwords');
    for (const [label, code] of [
      ['Password:', 'getpass.getpass'],
      ['Passphrase:', 'read -r -s'],
    ] as const) {
      // This cell, by its code: the model's next cell may appear as soon as this one is done.
      const asking = ui.page.getByTestId('cell').filter({ hasText: code });
      const question = asking.getByTestId('input-prompt');
      await expectText(question, 'waiting for a password', 30_000);
      await expectText(question.getByTestId('input-question'), label);
      const field = question.getByLabel('Password');
      expect(await field.getAttribute('type')).toBe('password');
      // Playwright's fill focuses the field, then types into whatever has focus: on a loaded machine a
      // re-render between the two has left the field empty and Enter then sent an empty password
      // (CI, once). What the person typed is what is checked to be there before Enter.
      for (let tries = 0; tries < 3 && (await field.inputValue()) !== secret; tries++) await field.fill(secret);
      expect(await field.inputValue()).toBe(secret);
      if (label === 'Password:') await shot(ui.page, 'ui-input-password.png');
      await field.press('Enter');
      await expectText(asking.getByTestId('password-sent'), 'password sent', 30_000);
    }
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Both secrets arrived.', 30_000);
    await expectText(ui.page.getByTestId('cell').nth(-2).getByTestId('terminal'), `got ${secret.length} characters`);
    await expectText(cell().getByTestId('terminal'), `${secret.length} characters`);
    await shot(ui.page, 'ui-input-password-sent.png');

    // Nowhere afterwards: the page, what it was sent, the data folder (conversation files, settings),
    // the workspace (run logs), both exports and every request the model received.
    expect(await ui.page.content()).not.toContain(secret);
    expect(ui.frames.join('\n')).not.toContain(secret);
    const { id, workspace } = await currentConversation(ui.aut);
    const files = [...filesUnder(ui.aut.dataDir), ...filesUnder(workspace)];
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => f.text.includes(secret)).map((f) => f.file)).toEqual([]);
    const notebook = await ui.aut.app.handlers['notebook.export']({ conversationId: id }, { transport: 'ipc' });
    expect(notebook.text).toContain('characters');
    expect(notebook.text).not.toContain(secret);
    const lmc = await ui.aut.app.handlers['conversation.export-lmc']({ conversationId: id }, { transport: 'ipc' });
    expect(lmc.json).not.toContain(secret);
    expect(JSON.stringify(ui.aut.llm.requests.map((r) => r.body))).not.toContain(secret);
    const told = toolResult(ui.aut.llm, ui.aut.llm.requests.filter((r) => r.path === '/v1/chat/completions').length - 1, 'call_pw_sh');
    expect(told).toContain("asked for a password ('Passphrase:'); the user entered it (not shown)");
  });
});
