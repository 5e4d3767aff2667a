import { describe, expect, it } from 'vitest';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage } from '../support/ui-harness';
import { holdReplies } from '../support/held-replies';

// Enter pressed while a dropped file is still being copied into the conversation used to do nothing:
// the composer returned early, without a word, and the person had to press it again. Now the message is
// queued, says so, and goes once the copy ends. The socket between the page and the real server is
// routed through the test, which holds the copy's answer back until the queued state has been seen —
// the server's answer itself is untouched.

const held = holdReplies('workspace.attach', true);

describe('a message sent while its attachment is still being copied in', () => {
  const ui = useUiApp({}, { newConversation: true, beforeGoto: held.beforeGoto });

  it('goes once the copy ends, with the attachment, after saying it waits', async () => {
    const p = ui.page;
    await p.getByTestId('chat').evaluate((target) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new TextEncoder().encode('a,b\n1,2\n')], 'numbers.csv', { type: 'text/csv' }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    // The copy's answer is held: the chip stays "copying…".
    await expect.poll(() => held.replies.length).toBe(1);
    await expectAttribute(p.getByTestId('attachment-chip'), 'data-state', 'uploading');

    ui.aut.llm.enqueue({ kind: 'text', text: 'Two columns.' });
    await sendMessage(p, 'What is in this file?');
    await expectText(p.getByTestId('send-queued'), 'Sends once the attachments are copied in');
    // Nothing went yet: no message of the person's, no request to the model.
    expect(await p.getByTestId('user-message').count()).toBe(0);
    expect(ui.aut.llm.requests.length).toBe(0);

    held.release();
    await expectText(p.getByTestId('assistant-message').last(), 'Two columns.');
    await expectText(p.getByTestId('user-message').last(), 'numbers.csv');
    expect(await p.getByTestId('send-queued').count()).toBe(0);
    expect(JSON.stringify(ui.aut.llm.requests.at(-1)?.body)).toContain('attachments/numbers.csv');
  });
});
