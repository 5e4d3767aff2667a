import type { CellItem, ConversationItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { fitHistory } from '../../../src-main/core/agent/history-fit';
import { estimatingCounter } from '../../../src-main/core/llm/token-counter';

let n = 0;
const user = (text: string): ConversationItem => ({ kind: 'user', id: `u${++n}`, text, attachments: [], createdAt: '' });
const say = (step: string, text: string): ConversationItem => ({
  kind: 'assistant',
  id: `a${++n}`,
  step,
  text,
  thinking: [],
  interrupted: false,
  createdAt: '',
});
const cell = (step: string, result: string): CellItem => ({
  kind: 'cell',
  id: `c${++n}`,
  step,
  toolCallId: `call${n}`,
  language: 'shell',
  code: 'run',
  status: 'done',
  approval: 'auto',
  outputs: [],
  exitCode: 0,
  durationMs: 1,
  executionCount: 1,
  startedAt: null,
  limits: null,
  resultForModel: result,
});
const fit = (items: ConversationItem[], budget: number) =>
  fitHistory({ items, budget, counter: estimatingCounter, images: true, trimmedOutputChars: 300 });

const history = (): ConversationItem[] => [
  user('one'),
  cell('s1', 'A'.repeat(3000)),
  say('s1', 'did one'),
  user('two'),
  cell('s2', 'B'.repeat(3000)),
  say('s2', 'did two'),
  user('three'),
];

describe('fitHistory', () => {
  it('leaves history that fits untouched', () => {
    const items = history();
    const result = fit(items, 100_000);
    expect(result).toMatchObject({ trimmedOutputs: 0, droppedTurns: 0, overBudget: false });
    expect(result.items).toEqual(items);
  });

  it('shortens the oldest long outputs first and keeps both ends of them', () => {
    const items = history();
    const result = fit(items, 1600);
    expect(result.trimmedOutputs).toBe(1);
    expect(result.droppedTurns).toBe(0);
    const first = result.items[1] as CellItem;
    expect(first.resultForModel).toMatch(/^A+\n\[… \d+ characters left out to fit the context window …\]\nA+$/);
    expect((result.items[4] as CellItem).resultForModel).toBe('B'.repeat(3000));
    // The conversation's own items are not changed.
    expect((items[1] as CellItem).resultForModel).toHaveLength(3000);
  });

  it('drops whole turns from the start, never the newest', () => {
    const result = fit(history(), 150);
    expect(result.items.map((i) => (i.kind === 'user' ? i.text : i.kind))).toEqual(['three']);
    expect(result.droppedTurns).toBe(2);
    const tight = fit([user('x'.repeat(5000))], 10);
    expect(tight.items).toHaveLength(1);
    expect(tight.overBudget).toBe(true);
  });

  it('gives a surviving turn its whole output back once older turns are dropped', () => {
    // Turn one's long answer cannot be shortened, so shortening outputs is not enough and it goes;
    // then there is room for turn two's output whole again.
    const items = [
      user('one'),
      say('s1', 'T'.repeat(4500)),
      cell('s1', 'A'.repeat(3000)),
      user('two'),
      cell('s2', 'B'.repeat(3000)),
      user('three'),
    ];
    const result = fit(items, 1200);
    expect(result.droppedTurns).toBe(1);
    expect(result.trimmedOutputs).toBe(0);
    expect((result.items[1] as CellItem).resultForModel).toBe('B'.repeat(3000));
  });

  it('drops a leading run of items without a user message as a turn of its own', () => {
    const items = [say('s0', 'imported start '.repeat(100)), user('now')];
    const result = fit(items, 50);
    expect(result.items.map((i) => i.kind)).toEqual(['user']);
  });
});
