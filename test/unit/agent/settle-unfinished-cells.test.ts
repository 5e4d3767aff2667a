import { describe, expect, it } from 'vitest';
import type { AnyEvent, CellItem, Conversation } from '@contract';
import { LiveConversation } from '../../../src-main/core/agent/live-conversation';
import { settleUnfinishedCells } from '../../../src-main/core/agent/turn-cell';
import { EventBus } from '../../../src-main/core/bridge/event-bus';

// Whatever path ends a turn, no cell stays streaming, awaiting approval or running in the record
// (issue 25, item 1): each says what became of it, and the UI hears the same.

const cell = (id: string, status: CellItem['status'], startedAt: string | null = null): CellItem =>
  ({
    kind: 'cell',
    id,
    step: 's',
    language: 'shell',
    code: 'echo',
    status,
    approval: null,
    outputs: [],
    exitCode: null,
    durationMs: null,
    startedAt,
    resultForModel: null,
    toolCallId: null,
  }) as unknown as CellItem;

describe('the end of a turn', () => {
  it('settles every unfinished cell and tells the UI, leaving finished ones alone', () => {
    const conv = {
      id: 'c',
      items: [cell('a', 'done', 't'), cell('b', 'streaming'), cell('c', 'awaiting-approval'), cell('d', 'running', 't')],
    } as unknown as Conversation;
    const events = new EventBus();
    const seen: AnyEvent[] = [];
    events.subscribe((e) => void seen.push(e));
    settleUnfinishedCells(new LiveConversation(conv), events);
    expect(conv.items.map((i) => (i.kind === 'cell' ? [i.status, i.resultForModel] : null))).toEqual([
      ['done', null],
      ['interrupted', 'The turn ended before this code was complete; it was not run.'],
      ['skipped', 'Not run: the turn ended before it was approved.'],
      ['interrupted', 'The turn ended while this code was running.'],
    ]);
    expect(seen.map((e) => (e.name === 'cell.done' ? e.payload.cell.id : e.name))).toEqual(['b', 'c', 'd']);
  });
});
