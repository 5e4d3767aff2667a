import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '@contract';
import { withWorkspaceNotes } from '../../../src-main/core/agent/workspace-change-note';

const at = '2026-01-01T00:00:00Z';
const user = (id: string, text: string): ConversationItem => ({ kind: 'user', id, text, attachments: [], createdAt: at });
const moved = (id: string, from: string, to: string): ConversationItem => ({
  kind: 'notice',
  id,
  level: 'info',
  text: `moved to ${to}`,
  createdAt: at,
  workspaceChange: { from, to },
});

describe('withWorkspaceNotes', () => {
  it('leaves a history without moves as it is (the same array)', () => {
    const items = [user('u1', 'hi'), { kind: 'notice', id: 'n1', level: 'info', text: 'retrying', createdAt: at } as const];
    expect(withWorkspaceNotes(items)).toBe(items);
  });

  it('puts each move ahead of the next user message, in order, without changing the stored items', () => {
    const items = [user('u1', 'first'), moved('n1', '/a', '/b'), moved('n2', '/b', '/c'), user('u2', 'second'), user('u3', 'third')];
    const sent = withWorkspaceNotes(items);
    const texts = sent.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''));
    expect(texts[0]).toBe('first');
    expect(texts[1]).toMatch(
      /^\[Note from the app[^\n]*now \/b \(it was \/a\)[^\n]*\]\n\[Note from the app[^\n]*now \/c \(it was \/b\)[^\n]*\]\n\nsecond$/,
    );
    expect(texts[2]).toBe('third');
    expect(sent.find((i) => i.id === 'u2')?.id).toBe('u2');
    expect(items[3]).toEqual(user('u2', 'second'));
  });

  it('adds nothing when no message follows the move yet', () => {
    const sent = withWorkspaceNotes([user('u1', 'first'), moved('n1', '/a', '/b')]);
    expect(sent.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['first']);
  });
});
