import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProposal, readScheduleProposal, SCHEDULE_LANGUAGE, type AnyEvent, type CellItem, type NoticeItem } from '@contract';
import type { ScriptedLlm } from '../../fixtures/llm-server-parts/types';
import type { AppUnderTest } from '../../support/app-under-test';
import { startAppOver } from '../../support/app-over-protocol';
import { lastRequestText, toolNamesOf } from './support/request-parts';

// "Run this again every Monday" from a conversation (docs/schedules.md#from-a-conversation), through
// the whole app (app.ts's wiring, the scheduled tasks' own admin, OI_SCHEDULER=in-app) with the
// scripted model on both protocols. Auto-run is on throughout: the proposal is asked about anyway.
// Approved, the task is made by the Schedules screen's code path and the notice names it; declined,
// the model is told and nothing is made; a malformed proposal is refused naming the argument, before
// anyone is asked.

const ctx = { transport: 'websocket' as const };

describe.each(['openai', 'anthropic'] as const)('schedule_task over %s', (protocol) => {
  let llm: ScriptedLlm;
  let aut: AppUnderTest;
  let ws: string;
  const events: AnyEvent[] = [];

  beforeAll(async () => {
    aut = await startAppOver(protocol, 'sk-test-schedule', { autoRun: true });
    llm = aut.llm;
    ws = path.join(aut.dataDir, 'reports');
    mkdirSync(ws);
    aut.app.events.subscribe((e) => void events.push(e));
  });
  afterAll(async () => {
    await aut?.close();
  });

  const storeFile = () => path.join(aut.dataDir, 'schedules.json');
  const listed = async () => (await aut.app.handlers['schedules.list']({}, ctx)).schedules.map((e) => e.schedule);
  const readStore = () => (existsSync(storeFile()) ? listed() : Promise.resolve([]));

  /** Sends a message; `answer` decides the proposal when it waits (after checking nothing exists yet). */
  async function turn(text: string, answer?: (conversationId: string, cell: CellItem) => Promise<unknown>) {
    const conv = await aut.app.handlers['conversation.create']({ workspace: ws }, ctx);
    const from = llm.requests.length;
    const seen = events.length;
    const asked = new Promise<CellItem>((resolve) => {
      const off = aut.app.events.subscribe((e) => {
        if (e.name === 'cell.awaiting-approval' && e.payload.conversationId === conv.id) {
          off();
          resolve(e.payload.cell);
        }
      });
    });
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text }, ctx);
    if (answer) await answer(conv.id, await asked);
    await aut.app.context.agent.idle(conv.id);
    const after = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx);
    return { conv: after, sent: llm.requests.slice(from), events: events.slice(seen) };
  }

  it('asks even under auto-run, saying what runs, when, where and how; approved, the task is made and the notice names it', async () => {
    llm.enqueue(
      {
        kind: 'tool',
        calls: [
          {
            id: 's1',
            name: 'schedule_task',
            arguments: { name: 'Monday report', prompt: 'Summarise the logs.', days: 'mon', at: '09:00' },
          },
        ],
      },
      { kind: 'text', text: 'It will run every Monday.' },
    );
    const before = (await listed()).length;
    const { conv, sent } = await turn('Run this again every Monday at 9.', async (conversationId, cell) => {
      // Waiting for the person: nothing is made before the consent, auto-run notwithstanding.
      expect(await listed()).toHaveLength(before);
      expect(cell.language).toBe(SCHEDULE_LANGUAGE);
      const read = readScheduleProposal(cell.code);
      if (!read.ok) throw new Error(read.error);
      // What the card and oi's question show: the conversation's folder filled in, the policy spelt out.
      expect(Object.fromEntries(describeProposal(read.proposal))).toMatchObject({
        Task: 'Monday report',
        When: 'mon at 09:00',
        In: ws,
        Code: 'runs without asking, in the sandbox',
        Limits: '$1 and 30 min a run',
      });
      await aut.app.handlers['cell.approve']({ conversationId, cellId: cell.id, always: true }, ctx);
    });
    expect(toolNamesOf(sent[0]?.body, protocol)).toContain('schedule_task');
    const tasks = await listed();
    const task = tasks.find((t) => t.name === 'Monday report');
    expect(task).toMatchObject({
      prompt: 'Summarise the logs.',
      workspace: ws,
      when: { kind: 'weekly', days: ['mon'], time: '09:00' },
      policy: { sandbox: 'required', code: 'auto-run', budgetUsd: 1, timeLimitMinutes: 30 },
      runner: 'in-app',
      model: null,
    });
    const cell = conv.items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell).toMatchObject({ status: 'done', approval: 'user' });
    const notice = conv.items.find((i): i is NoticeItem => i.kind === 'notice' && i.schedule !== undefined);
    expect(notice?.schedule).toEqual({ id: task?.id, name: 'Monday report' });
    // The model reads what was made; "always" turned no auto-run on for the conversation.
    expect(lastRequestText(sent[1]?.body)).toContain(`Scheduled \\"Monday report\\" (id ${task?.id})`);
    expect(conv.autoRun).not.toBe(true);
  });

  it('declined: the model is told, and nothing is made', async () => {
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 's2', name: 'schedule_task', arguments: { name: 'Hourly poll', prompt: 'Poll.', every: '1h' } }] },
      { kind: 'text', text: 'Understood.' },
    );
    const before = await readStore();
    const { conv, sent } = await turn('Poll every hour.', (conversationId, cell) =>
      aut.app.handlers['cell.skip']({ conversationId, cellId: cell.id }, ctx),
    );
    expect(conv.items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'skipped', approval: 'declined' });
    expect(lastRequestText(sent[1]?.body)).toContain('The person declined this scheduled task; nothing was scheduled.');
    expect(await readStore()).toEqual(before);
  });

  it('refuses a malformed time and a relative folder, naming them, before anyone is asked; nothing is made', async () => {
    llm.enqueue(
      {
        kind: 'tool',
        calls: [
          { id: 'b1', name: 'schedule_task', arguments: { name: 'Odd', prompt: 'x', every: '7m' } },
          { id: 'b2', name: 'schedule_task', arguments: { name: 'Rel', prompt: 'x', days: 'mon', at: '09:00', workspace: 'reports' } },
          { id: 'b3', name: 'schedule_task', arguments: { name: 'Late', prompt: 'x', days: 'mon', at: '25:00' } },
        ],
      },
      { kind: 'text', text: 'Those could not be scheduled.' },
    );
    const before = await readStore();
    const { conv, events: during } = await turn('Schedule these.');
    expect(during.some((e) => e.name === 'cell.awaiting-approval')).toBe(false);
    const told = conv.items.filter((i): i is CellItem => i.kind === 'cell').map((c) => [c.status, c.resultForModel]);
    expect(told).toEqual([
      ['failed', expect.stringMatching(/^Error: "every": every N minutes needs N to divide an hour.*; nothing was scheduled\.$/)],
      [
        'failed',
        'Error: "workspace": reports is not an absolute path; give the full path of the folder the task runs in; nothing was scheduled.',
      ],
      ['failed', expect.stringMatching(/^Error: "at": a time is HH:MM on a 24-hour clock/)],
    ]);
    expect(await readStore()).toEqual(before);
  });
});
