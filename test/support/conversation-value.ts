import type { Conversation } from '@contract';

/**
 * A conversation as the app saves it, holding `items` (id c1, workspace /w, nothing spent, auto-run
 * off), for tests of what reads or folds one; `overrides` on top.
 */
export function conversationOf(items: Conversation['items'] = [], overrides: Partial<Conversation> = {}): Conversation {
  return {
    version: 1,
    id: 'c1',
    title: 't',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    workspace: '/w',
    items,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    autoRun: false,
    ...overrides,
  };
}
