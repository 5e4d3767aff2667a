import type { AnyEvent, AssistantItem, UserItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { conversationOf } from '../../support/conversation-value';
import { visibleThinking } from '../../../src-renderer/features/chat/visible-thinking';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';

const user: UserItem = { kind: 'user', id: 'u1', text: 'hi', attachments: [], createdAt: '2026-01-01T00:00:00Z' };
const assistant: AssistantItem = {
  kind: 'assistant',
  id: 'a1',
  step: 's1',
  text: '',
  thinking: [],
  interrupted: false,
  createdAt: '2026-01-01T00:00:00Z',
};
const conv = conversationOf;
const delta = (block: number, text: string, itemId = 'a1'): AnyEvent => ({
  name: 'assistant.thinking-delta',
  payload: { conversationId: 'c1', itemId, block, text },
});
const thinkingOf = (view: ReturnType<typeof viewOf>) => (view.conv.items[1] as AssistantItem).thinking;

describe('thinking in the conversation reducer', () => {
  it('appends deltas to their block, opening unsigned blocks as they start; other items keep their objects', () => {
    let view = viewOf(conv([user, assistant]));
    for (const e of [delta(0, 'Let me '), delta(0, 'see.'), delta(1, 'Second')]) view = applyEvent(view, e);
    expect(thinkingOf(view)).toEqual([
      { thinking: 'Let me see.', signature: '' },
      { thinking: 'Second', signature: '' },
    ]);
    expect(view.conv.items[0]).toBe(user);
    // The original item was not mutated.
    expect(assistant.thinking).toEqual([]);
  });

  it('takes the signed blocks from assistant.done, and ignores deltas for items it does not have', () => {
    let view = viewOf(conv([user, assistant]));
    view = applyEvent(view, delta(0, 'Draft'));
    const signed: AssistantItem = {
      ...assistant,
      text: 'Answer',
      thinking: [
        { thinking: 'Draft', signature: 'sig==' },
        { thinking: '', signature: 'redacted:x' },
      ],
    };
    view = applyEvent(view, { name: 'assistant.done', payload: { conversationId: 'c1', item: signed } });
    expect(thinkingOf(view)).toEqual(signed.thinking);
    expect(applyEvent(view, delta(0, 'x', 'missing'))).toBe(view);
    expect(applyEvent(view, { ...delta(0, 'x'), payload: { ...delta(0, 'x').payload, conversationId: 'other' } } as AnyEvent)).toBe(view);
  });

  it('shows only blocks with text: redacted thinking is kept but never displayed', () => {
    expect(
      visibleThinking([
        { thinking: 'Draft', signature: 'sig' },
        { thinking: '', signature: 'redacted:opaque' },
        { thinking: '  ', signature: '' },
      ]),
    ).toEqual(['Draft']);
  });
});
