import type { AnyEvent, CellItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { conversationOf } from '../../support/conversation-value';
import { activityOf, applyEvent, pendingCell, viewOf } from '../../../src-renderer/state/conversation-reducer';

const conv = conversationOf;

const cell = (patch: Partial<CellItem> = {}): CellItem => ({
  kind: 'cell',
  id: 'cell1',
  step: 's1',
  toolCallId: 'call1',
  language: '',
  code: '',
  status: 'streaming',
  approval: null,
  outputs: [],
  exitCode: null,
  durationMs: null,
  executionCount: null,
  startedAt: null,
  limits: null,
  resultForModel: null,
  ...patch,
});

const ev = (e: AnyEvent) => e;

describe('the conversation reducer', () => {
  it('ignores events for other conversations, returning the same view', () => {
    const view = viewOf(conv());
    expect(applyEvent(view, ev({ name: 'turn.start', payload: { conversationId: 'other' } }))).toBe(view);
  });

  it('streams assistant text and code into the items, touching only the item that changed', () => {
    const user = { kind: 'user' as const, id: 'u1', text: 'hi', attachments: [], createdAt: '' };
    let view = viewOf(conv([user]));
    view = applyEvent(
      view,
      ev({
        name: 'item.added',
        payload: {
          conversationId: 'c1',
          item: { kind: 'assistant', id: 'a1', step: 's1', text: '', thinking: [], interrupted: false, createdAt: '' },
        },
      }),
    );
    view = applyEvent(view, ev({ name: 'assistant.delta', payload: { conversationId: 'c1', itemId: 'a1', text: 'Hel' } }));
    view = applyEvent(view, ev({ name: 'assistant.delta', payload: { conversationId: 'c1', itemId: 'a1', text: 'lo' } }));
    view = applyEvent(view, ev({ name: 'item.added', payload: { conversationId: 'c1', item: cell() } }));
    view = applyEvent(
      view,
      ev({ name: 'cell.code', payload: { conversationId: 'c1', cellId: 'cell1', language: 'python', code: 'print(1' } }),
    );
    const before = view;
    view = applyEvent(
      view,
      ev({ name: 'cell.code', payload: { conversationId: 'c1', cellId: 'cell1', language: 'python', code: 'print(1)' } }),
    );
    expect(view.conv.items[0]).toBe(user);
    expect(view.conv.items[1]).toBe(before.conv.items[1]);
    expect(view.conv.items[1]).toMatchObject({ text: 'Hello' });
    expect(view.conv.items[2]).toMatchObject({ code: 'print(1)', language: 'python' });
    // The same code again changes nothing.
    expect(
      applyEvent(view, ev({ name: 'cell.code', payload: { conversationId: 'c1', cellId: 'cell1', language: 'python', code: 'print(1)' } })),
    ).toBe(view);
  });

  it('does not add an item twice', () => {
    const view = applyEvent(viewOf(conv()), ev({ name: 'item.added', payload: { conversationId: 'c1', item: cell() } }));
    expect(applyEvent(view, ev({ name: 'item.added', payload: { conversationId: 'c1', item: cell() } }))).toBe(view);
  });

  it('tracks the turn, the pending cell, the running cell and why the turn ended', () => {
    let view = applyEvent(viewOf(conv([cell()])), ev({ name: 'turn.start', payload: { conversationId: 'c1' } }), 1000);
    expect(view.busy).toBe(true);
    expect(activityOf(view)).toEqual({ kind: 'model', since: 1000 });
    const waiting = cell({ status: 'awaiting-approval', code: 'ls' });
    view = applyEvent(view, ev({ name: 'cell.awaiting-approval', payload: { conversationId: 'c1', cell: waiting } }));
    expect(pendingCell(view)?.id).toBe('cell1');
    expect(activityOf(view).kind).toBe('approval');
    const limits = { timeoutMs: 1000, memoryMb: null, cpuSeconds: null, maxProcesses: null, sandbox: null };
    view = applyEvent(
      view,
      ev({
        name: 'cell.running',
        payload: { conversationId: 'c1', cellId: 'cell1', code: 'ls -a', startedAt: '2026-01-01T00:00:05Z', limits, executionCount: 1 },
      }),
    );
    expect(view.conv.items[0]).toMatchObject({ status: 'running', code: 'ls -a', executionCount: 1 });
    expect(activityOf(view)).toMatchObject({ kind: 'running', since: Date.parse('2026-01-01T00:00:05Z') });
    expect(pendingCell(view)).toBeNull();
    view = applyEvent(
      view,
      ev({
        name: 'cell.output',
        payload: {
          conversationId: 'c1',
          cellId: 'cell1',
          output: { output_type: 'display_data', data: { 'text/plain': 'x' }, metadata: {} },
        },
      }),
    );
    expect((view.conv.items[0] as CellItem).outputs).toHaveLength(1);
    const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0.01 };
    view = applyEvent(
      view,
      ev({ name: 'usage.updated', payload: { conversationId: 'c1', usage, contextTokens: 500, contextWindow: 1000 } }),
    );
    expect(view.context).toEqual({ tokens: 500, window: 1000 });
    view = applyEvent(view, ev({ name: 'turn.end', payload: { conversationId: 'c1', reason: 'error', usage } }));
    expect(view).toMatchObject({ busy: false, lastEnd: 'error', turnStartedAt: null });
    expect(view.conv.usage).toEqual(usage);
  });
});
