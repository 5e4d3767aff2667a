import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEvent, EventPayload } from '@contract';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { buildWheel, venvWithoutOwnPip } from '../../support/package-registries';
import { executeThenSay } from '../../support/scripted-replies';
import { logLines } from '../../support/log-lines';

// The whole path of an automatic install inside a turn: the model's import fails, the user is asked
// (an event, answered through the handler table like a cell approval), pip installs from a local
// wheel, the cell runs again, and the model sees the successful result.

const ctx = { transport: 'websocket' as const };

describe('a turn whose code needs a missing package', () => {
  let root: string;
  let aut: AppUnderTest;
  const events: AnyEvent[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'oi-install-turn-'));
    const wheels = path.join(root, 'wheels');
    const venv = path.join(root, 'venv');
    // The venv's `python -m pip` is Debian's pip through its system site packages, not a copy of its own
    // (ensurepip's copy is ~4 CPU-seconds), and pip installs into the venv (auto-install.test.ts does the same).
    await Promise.all([buildWheel(wheels, 'oi_turn_pkg', 1234), venvWithoutOwnPip(venv, { systemSitePackages: true })]);
    aut = await startAppUnderTest({
      exec: { pythonPath: path.join(venv, 'bin', 'python'), env: { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' } },
    });
    aut.app.events.subscribe((e) => void events.push(e));
  });
  afterAll(async () => {
    await aut?.close();
    await rm(root, { recursive: true, force: true });
  });

  const waitFor = async <N extends AnyEvent['name']>(name: N): Promise<EventPayload<N>> => {
    await expect.poll(() => events.some((e) => e.name === name), { timeout: 60_000 }).toBe(true);
    return events.find((e) => e.name === name)?.payload as EventPayload<N>;
  };

  /** Answers the install question, waits for the turn to end: the saved conversation and its cell. */
  async function answer(conversationId: string, questionId: string, install: boolean) {
    await aut.app.handlers['install.answer']({ conversationId, questionId, install }, ctx);
    await waitFor('turn.end');
    await aut.app.context.agent.idle(conversationId);
    const saved = await aut.app.handlers['conversation.get']({ conversationId }, ctx);
    return { saved, cell: saved.items.find((i) => i.kind === 'cell') };
  }

  it('asks before installing, installs on yes, re-runs the cell and records the install', async () => {
    aut.llm.enqueue(
      ...executeThenSay(
        { id: 'call_pkg', language: 'python', code: 'import oi_turn_pkg\nprint("value", oi_turn_pkg.VALUE)' },
        'It printed the value.',
      ),
    );
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text: 'use oi_turn_pkg' }, ctx);
    const pending = await waitFor('cell.awaiting-approval');
    await aut.app.handlers['cell.approve']({ conversationId: conv.id, cellId: pending.cell.id }, ctx);

    const question = await waitFor('install.awaiting-approval');
    expect(question).toMatchObject({ kind: 'pip', packages: ['oi_turn_pkg'], cellId: pending.cell.id });
    expect(question.text).toMatch(/oi_turn_pkg/);
    const { saved, cell } = await answer(conv.id, question.questionId, true);
    expect(cell?.kind === 'cell' && cell.status).toBe('done');
    expect(cell?.kind === 'cell' && cell.resultForModel).toMatch(/value 1234/);
    const notice = saved.items.find((i) => i.kind === 'notice' && i.install);
    expect(notice?.kind === 'notice' && notice.install).toMatchObject({ manager: 'pip', packages: ['oi_turn_pkg'], ok: true });
    const toolResult = (aut.llm.requests[1]?.body as { messages: Array<{ role: string; content: string }> }).messages.find(
      (m) => m.role === 'tool',
    );
    expect(toolResult?.content).toMatch(/value 1234/);
  });

  it('tells the model when the user declines the install, and the needsPerson hooks of the question (issue 28)', async () => {
    events.length = 0;
    // The person's needsPerson hook, matched to install questions only (docs/agent.md#hooks).
    const log = path.join(root, 'needs-install.jsonl');
    const logHook = path.resolve(import.meta.dirname, '../../fixtures/hooks/log.sh');
    await writeFile(
      path.join(aut.dataDir, 'hooks.json'),
      JSON.stringify({ hooks: { needsPerson: [{ command: `/bin/bash '${logHook}' '${log}'`, matcher: 'install' }] } }),
    );
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_no', name: 'execute', arguments: { language: 'python', code: 'import oi_other_missing_pkg' } }] },
      { kind: 'text', text: 'Understood.' },
    );
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text: 'use another package' }, ctx);
    const pending = await waitFor('cell.awaiting-approval');
    await aut.app.handlers['cell.approve']({ conversationId: conv.id, cellId: pending.cell.id }, ctx);
    const question = await waitFor('install.awaiting-approval');
    // Told while the question waits (the cell's approval before it is not an install: not matched).
    await expect.poll(() => logLines(log), { timeout: 60_000 }).toHaveLength(1);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({
      event: 'needsPerson',
      waitingFor: 'install',
      conversationId: conv.id,
      install: { kind: 'pip', packages: ['oi_other_missing_pkg'], command: expect.stringContaining('pip install') },
    });
    const { cell } = await answer(conv.id, question.questionId, false);
    expect(cell?.kind === 'cell' && cell.status).toBe('failed');
    expect(cell?.kind === 'cell' && cell.resultForModel).toMatch(/ModuleNotFoundError/);
  });
});
