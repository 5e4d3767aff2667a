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

describe('fitHistory with screenshots', () => {
  // A computer call as the agent records it: its screenshot an output, sent back while among the latest three.
  const shot = (step: string, size: { width: number; height: number }, fromCell?: string): CellItem => ({
    ...cell(step, 'Click at (1, 2): done.'),
    language: 'computer',
    code: '{"action":"click","x":1,"y":2}',
    outputs: [{ output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=' }, metadata: { computer: size } }],
    ...(fromCell ? { fromCell, toolCallId: null } : {}),
  });
  const screen = { width: 1568, height: 882 }; // 1568 × 882 / 750 → 1,844 tokens
  const turns = (): ConversationItem[] => [
    user('one'),
    shot('s1', screen),
    shot('s1', screen),
    user('two'),
    shot('s2', screen),
    shot('s2', screen),
    user('three'),
  ];

  it('counts the image tokens of the screenshots sent (the latest three), so a turn is dropped to fit them', () => {
    const items = turns();
    const without = fitHistory({ items, budget: 100_000, counter: estimatingCounter, images: false, trimmedOutputChars: 300 });
    const full = fit(items, 100_000);
    expect(full.tokens - without.tokens).toBe(3 * 1844);
    // One token short of the whole: the first turn goes (and with it one of the three screenshots);
    // counted as text alone, the same history would have been sent whole, over the window.
    const fitted = fit(items, full.tokens - 1);
    expect(fitted.droppedTurns).toBe(1);
    expect(fitted.overBudget).toBe(false);
    expect(fitted.tokens).toBeLessThanOrEqual(full.tokens - 1844);
    expect(
      fitHistory({ items, budget: full.tokens - 1, counter: estimatingCounter, images: false, trimmedOutputChars: 300 }).droppedTurns,
    ).toBe(0);
  });

  it('counts nothing for an action the code asked for, which is never sent', () => {
    const items: ConversationItem[] = [user('one'), cell('s1', 'ran'), shot('s1', screen, 'c-code'), user('two')];
    const withAction = fit(items, 100_000);
    const without = fit([items[0], items[1], items[3]] as ConversationItem[], 100_000);
    expect(withAction.tokens).toBe(without.tokens);
  });
});
