import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import type { ScriptedLlm } from '../../fixtures/llm-server-parts/types';
import type { AppUnderTest } from '../../support/app-under-test';
import { startAppOver } from '../../support/app-over-protocol';
import { lastRequestText, systemPromptOf, toolNamesOf } from './support/request-parts';

// Plan mode and the task list through full agent turns with the scripted model, on both protocols
// (docs/agent.md#plan-mode, #task-list). In plan mode a cell runs in the sandbox with the workspace
// read-only (real bubblewrap): it reads, its write is refused, the model is told why, and the file is
// really not there; the same cell outside plan mode writes it. A proposed plan waits for the person:
// approved (edited), plan mode ends and the work runs step by step against the task list; rejected,
// plan mode stays and the model reads the reason.

const ctx = { transport: 'websocket' as const };
// Shell cells: a bash session starts far cheaper than a Python one, and the sandbox holds both alike.
const WRITE = 'cat data.txt; echo\nprintf written > out.txt';

describe.each(['openai', 'anthropic'] as const)('plan mode over %s', (protocol) => {
  let root: string;
  let llm: ScriptedLlm;
  let aut: AppUnderTest;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-plan-')));
    // Auto-run on: plan mode alone must keep the workspace safe, and a plan is still asked about.
    aut = await startAppOver(protocol, 'sk-test-plan', { autoRun: true });
    llm = aut.llm;
  });
  afterAll(async () => {
    await aut?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function newConversation(name: string): Promise<{ id: string; workspace: string }> {
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    const workspace = path.join(root, `${name}-${protocol}`);
    rmSync(workspace, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(workspace));
    writeFileSync(path.join(workspace, 'data.txt'), 'DATA-MARKER');
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: workspace }, ctx);
    return { id: conv.id, workspace };
  }

  async function send(conversationId: string, text: string): Promise<Conversation> {
    await aut.app.handlers['chat.send']({ conversationId, text }, ctx);
    await aut.app.context.agent.idle(conversationId);
    return aut.app.context.agent.snapshot(conversationId);
  }

  const cellsOf = (conv: Conversation) => conv.items.filter((i): i is CellItem => i.kind === 'cell');

  /** Answers the next plan the model proposes, as the person would from the card. */
  function answerNextPlan(answer: { approve: boolean; steps?: string[]; reason?: string }): Promise<string[]> {
    return new Promise((resolve) => {
      const stop = aut.app.events.subscribe((event) => {
        if (event.name !== 'cell.awaiting-approval' || event.payload.cell.language !== 'plan:propose') return;
        stop();
        const { conversationId, cell } = event.payload;
        const proposed = (JSON.parse(cell.code) as { steps: string[] }).steps;
        void aut.app.handlers['plan.answer']({ conversationId, cellId: cell.id, ...answer }, ctx).then(() => resolve(proposed));
      });
    });
  }

  it('refuses a write in plan mode: the model reads why and the file is not written; twin: outside plan mode the same cell writes', async () => {
    const { id, workspace } = await newConversation('refuse');
    await aut.app.handlers['conversation.set-plan-mode']({ conversationId: id, planMode: true }, ctx);
    const before = llm.requests.length;
    // A sub-agent would run its cells outside this conversation's read-only sandbox: not offered, and
    // refused when called anyway.
    const delegate = { id: 'd1', name: 'delegate', arguments: { name: 'writer', task: 'Write out.txt', returns: 'done', write: true } };
    llm.enqueue(
      { kind: 'tool', calls: [delegate, { id: 'w1', name: 'execute', arguments: { language: 'shell', code: WRITE } }] },
      { kind: 'text', text: 'I can only look for now.' },
    );
    const conv = await send(id, 'Write out.txt');
    const calls = llm.requests.slice(before);
    expect(systemPromptOf(calls[0]?.body, protocol)).toContain('# Plan mode');
    expect(toolNamesOf(calls[0]?.body, protocol)).toEqual(expect.arrayContaining(['execute', 'propose_plan', 'update_tasks']));
    expect(toolNamesOf(calls[0]?.body, protocol)).not.toContain('delegate');
    const refused = cellsOf(conv).find((c) => c.toolCallId === 'd1');
    expect(refused?.status).toBe('failed');
    expect(refused?.resultForModel).toContain('in plan mode no sub-agent starts');
    const cell = cellsOf(conv).find((c) => c.toolCallId === 'w1');
    expect(cell?.status).toBe('failed');
    expect(cell?.limits?.sandbox).toContain('workspace read-only (plan mode)');
    // It read the workspace, and its write was refused by the sandbox, not by a check of the code.
    expect(cell?.resultForModel).toContain('DATA-MARKER');
    expect(cell?.resultForModel).toMatch(/Read-only file system/);
    expect(lastRequestText(calls[1]?.body)).toContain('Plan mode: the workspace is read-only and the network is off');
    expect(existsSync(path.join(workspace, 'out.txt'))).toBe(false);
    expect(conv.planMode).toBe(true);
    // Saved with the conversation.
    expect((await aut.app.context.conversations.get(id)).planMode).toBe(true);

    // Twin: plan mode off, the same cell writes the file.
    await aut.app.handlers['conversation.set-plan-mode']({ conversationId: id, planMode: false }, ctx);
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'w2', name: 'execute', arguments: { language: 'shell', code: WRITE } }] },
      { kind: 'text', text: 'Written.' },
    );
    const after = await send(id, 'Now write it');
    expect(cellsOf(after).at(-1)?.status).toBe('done');
    expect(readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('written');
    expect(systemPromptOf(llm.requests.at(-2)?.body, protocol)).not.toContain('# Plan mode');
    expect(toolNamesOf(llm.requests.at(-2)?.body, protocol)).toContain('delegate');
  });

  it('carries out an approved (edited) plan step by step: plan mode ends and the task list reaches done', async () => {
    const { id, workspace } = await newConversation('approve');
    await aut.app.handlers['conversation.set-plan-mode']({ conversationId: id, planMode: true }, ctx);
    const seen: string[] = [];
    const stop = aut.app.events.subscribe((event) => {
      if (event.name === 'tasks.updated' && event.payload.conversationId === id)
        seen.push(event.payload.tasks.map((t) => `${t.id}:${t.state}`).join(' '));
    });
    const answered = answerNextPlan({ approve: true, steps: ['Read data.txt', 'Write report.txt from it'] });
    const before = llm.requests.length;
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'p1', name: 'propose_plan', arguments: { steps: ['Read data', 'Write report'] } }] },
      { kind: 'tool', calls: [{ id: 't1', name: 'update_tasks', arguments: { action: 'start', ids: [1] } }] },
      { kind: 'tool', calls: [{ id: 'e1', name: 'execute', arguments: { language: 'shell', code: 'd=$(cat data.txt)' } }] },
      { kind: 'tool', calls: [{ id: 't2', name: 'update_tasks', arguments: { action: 'done', ids: [1] } }] },
      { kind: 'tool', calls: [{ id: 't3', name: 'update_tasks', arguments: { action: 'start', ids: [2] } }] },
      {
        kind: 'tool',
        calls: [{ id: 'e2', name: 'execute', arguments: { language: 'shell', code: 'printf %s "$d" | tr A-Z a-z > report.txt' } }],
      },
      { kind: 'tool', calls: [{ id: 't4', name: 'update_tasks', arguments: { action: 'done', ids: [2] } }] },
      { kind: 'text', text: 'The report is written.' },
    );
    const conv = await send(id, 'Make a report from data.txt');
    stop();
    expect(await answered).toEqual(['Read data', 'Write report']);
    const calls = llm.requests.slice(before);
    // The approved plan, as the person edited it, is what the model reads next.
    const approval = lastRequestText(calls[1]?.body);
    expect(approval).toContain('The person approved the plan, with their edits');
    expect(approval).toContain('[ ] 1. Read data.txt');
    expect(approval).toContain('[ ] 2. Write report.txt from it');
    // Out of plan mode: the next calls offer no propose_plan and the cell writes.
    expect(toolNamesOf(calls[1]?.body, protocol)).not.toContain('propose_plan');
    expect(readFileSync(path.join(workspace, 'report.txt'), 'utf8')).toBe('data-marker');
    expect(conv.planMode).toBe(false);
    expect(conv.tasks).toEqual([
      { id: 1, title: 'Read data.txt', state: 'done' },
      { id: 2, title: 'Write report.txt from it', state: 'done' },
    ]);
    expect(seen).toEqual(['1:pending 2:pending', '1:active 2:pending', '1:done 2:pending', '1:done 2:active', '1:done 2:done']);
    const plan = cellsOf(conv)[0];
    expect(plan).toMatchObject({ language: 'plan:propose', status: 'done', approval: 'user' });
    expect(JSON.parse(plan?.modelCode ?? '')).toEqual({ steps: ['Read data', 'Write report'] });
    // Every step done: no note of open steps.
    expect(conv.items.some((i) => i.kind === 'notice' && i.text.includes('still open'))).toBe(false);

    // The notebook keeps the list as a markdown cell; the plan and task calls are no code of its.
    const { text } = await aut.app.handlers['notebook.export']({ conversationId: id }, ctx);
    const nb = JSON.parse(text) as { cells: Array<{ cell_type: string; source: string[] | string; metadata: Record<string, unknown> }> };
    const source = (c: { source: string[] | string }) => (Array.isArray(c.source) ? c.source.join('') : c.source);
    const code = nb.cells.filter((c) => c.cell_type === 'code').map(source);
    expect(code).toHaveLength(2);
    expect(code[0]).toContain('d=$(cat data.txt)');
    expect(code[1]).toContain('tr A-Z a-z > report.txt');
    const list = nb.cells.at(-1);
    expect(list?.cell_type).toBe('markdown');
    expect(source(list ?? { source: '' })).toBe(
      '**Task list** — 2 of 2 steps done\n\n- [x] 1. Read data.txt\n- [x] 2. Write report.txt from it',
    );
    // Imported again, the list cell is not a message.
    const back = await aut.app.handlers['notebook.import']({ fileName: 'plan.ipynb', source: { text } }, ctx);
    expect(back.warnings).toEqual([]);
    expect(back.conversation.items.some((i) => i.kind === 'user' && i.text.includes('Task list'))).toBe(false);
  });

  it('keeps plan mode after a rejection, and the model reads the person’s reason', async () => {
    const { id } = await newConversation('reject');
    await aut.app.handlers['conversation.set-plan-mode']({ conversationId: id, planMode: true }, ctx);
    const answered = answerNextPlan({ approve: false, reason: 'Use the CSV file, not the JSON one' });
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'p2', name: 'propose_plan', arguments: { steps: ['Parse the JSON file'] } }] },
      { kind: 'text', text: 'I will look at the CSV file.' },
    );
    const conv = await send(id, 'Plan the import');
    await answered;
    const told = lastRequestText(llm.requests.at(-1)?.body);
    expect(told).toContain('The person rejected this plan. Their reason: Use the CSV file, not the JSON one');
    expect(told).toContain('Plan mode stays on');
    expect(conv.planMode).toBe(true);
    expect(cellsOf(conv)[0]).toMatchObject({ language: 'plan:propose', status: 'skipped', approval: 'declined' });
    expect(conv.tasks ?? []).toEqual([]);
  });

  it('notes a turn that ends with steps of the task list open, and refuses a bad update whole', async () => {
    const { id } = await newConversation('open-steps');
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'a1', name: 'update_tasks', arguments: { action: 'add', steps: ['Fetch', 'Clean', 'Plot'] } }] },
      { kind: 'tool', calls: [{ id: 'a2', name: 'update_tasks', arguments: { action: 'done', ids: [1, 7] } }] },
      { kind: 'tool', calls: [{ id: 'a3', name: 'update_tasks', arguments: { action: 'done', ids: [1] } }] },
      { kind: 'text', text: 'Fetched; the rest next time.' },
    );
    const conv = await send(id, 'Start the analysis');
    expect(lastRequestText(llm.requests.at(-2)?.body)).toContain('there is no step 7');
    expect(conv.tasks?.map((t) => t.state)).toEqual(['done', 'pending', 'pending']);
    const notice = conv.items.at(-1);
    expect(notice).toMatchObject({ kind: 'notice', text: 'The turn ended with 2 steps of the task list still open.' });
    // The next call reminds the model where the list stands.
    llm.enqueue({ kind: 'text', text: 'ok' });
    await send(id, 'go on');
    expect(systemPromptOf(llm.requests.at(-1)?.body, protocol)).toContain('[ ] 2. Clean');
  });
});
