import { describe, expect, it } from 'vitest';
import { attentionFor, defaultSettings, Settings, type AnyEvent } from '@contract';

// The moments that notify (docs/ui.md#notifications): one mapping for the OS's, the browser's and the
// terminal's notifications.

const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
const end = (reason: Extract<AnyEvent, { name: 'turn.end' }>['payload']['reason']): AnyEvent => ({
  name: 'turn.end',
  payload: { conversationId: 'c1', reason, usage },
});

describe('attentionFor', () => {
  it('names a finished, a failed turn, an approval and an input request; nothing for a stop or a delta', () => {
    expect(attentionFor(end('done'))).toEqual({ kind: 'turn-done', conversationId: 'c1', text: 'The turn finished.' });
    expect(attentionFor(end('budget'))).toEqual({
      kind: 'turn-failed',
      conversationId: 'c1',
      text: 'The turn failed: the budget is spent.',
    });
    expect(attentionFor(end('error'))?.kind).toBe('turn-failed');
    expect(attentionFor(end('stopped'))).toBeNull();
    expect(
      attentionFor({
        name: 'network.awaiting-approval',
        payload: { conversationId: 'c2', questionId: 'q', cellId: null, host: 'pypi.org', port: 443 },
      }),
    ).toEqual({ kind: 'approval', conversationId: 'c2', text: 'Code asks to reach pypi.org.' });
    expect(
      attentionFor({
        name: 'cell.input-requested',
        payload: { conversationId: 'c3', cellId: 'x', questionId: 'q', prompt: 'Name?', password: false, mode: 'line', command: null },
      }),
    ).toEqual({ kind: 'input', conversationId: 'c3', text: 'A program asks for input.' });
    expect(attentionFor({ name: 'assistant.delta', payload: { conversationId: 'c1', itemId: 'i', text: 'hi' } })).toBeNull();
  });

  it('notifies every kind by default, and settings refuse a kind that is none', () => {
    expect(defaultSettings.notifyOn).toEqual(['turn-done', 'turn-failed', 'approval', 'input']);
    expect(Settings.safeParse({ ...defaultSettings, notifyOn: ['turn-done', 'sometimes'] }).success).toBe(false);
    expect(Settings.safeParse({ ...defaultSettings, notifyOn: [] }).success).toBe(true);
  });
});
