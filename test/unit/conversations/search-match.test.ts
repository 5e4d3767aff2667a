import { describe, expect, it } from 'vitest';
import type { Conversation } from '@contract';
import { findMatch } from '../../../src-main/core/conversations/search-match';

const conv = (title: string, texts: string[]): Conversation => ({
  version: 1,
  id: 'c1',
  title,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  workspace: '/tmp/w',
  items: texts.map((text, i) => ({ kind: 'user', id: `u${i}`, text, attachments: [], createdAt: '2025-01-01T00:00:00.000Z' })),
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  autoRun: false,
});

const marked = (m: ReturnType<typeof findMatch>) =>
  m ? `${m.text.slice(0, m.start)}[${m.text.slice(m.start, m.start + m.length)}]${m.text.slice(m.start + m.length)}` : null;

describe('search matches', () => {
  it('marks a match in the title, case-insensitively', () => {
    expect(marked(findMatch(conv('Quarterly Report', ['x']), 'report'))).toBe('Quarterly [Report]');
  });

  it('cuts an excerpt around a match deep in a message, at a word, with ellipses', () => {
    const text = `${'lorem ipsum '.repeat(20)}the harbour   contracts were signed${' dolor sit amet'.repeat(20)}`;
    const m = findMatch(conv('Untitled', ['nothing here', text]), 'Harbour contracts');
    expect(m?.text.startsWith('…')).toBe(true);
    expect(m?.text.endsWith('…')).toBe(true);
    expect(marked(m)).toContain('the [harbour contracts] were signed');
    // Starts at a word boundary: the excerpt's first word is whole.
    expect(m?.text.slice(1).split(' ')[0]).toMatch(/^(lorem|ipsum)$/);
    expect(m?.text.length).toBeLessThan(140);
  });

  it('finds nothing for an empty query or a missing word', () => {
    expect(findMatch(conv('A', ['b']), '   ')).toBeNull();
    expect(findMatch(conv('A', ['b']), 'zebra')).toBeNull();
  });
});
