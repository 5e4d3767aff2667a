import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecSettings } from '@contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunExecution } from '../../../../src-main/core/exec/engine/run-execution';
import { SessionSlots } from '../../../../src-main/core/exec/engine/session-slots';
import type { SessionRoute } from '../../../../src-main/core/exec/session/session-types';
import { findLanguage } from '../../../../src-main/core/exec/languages/registry';
import { interruptedMessage, timeoutMessage } from '../../../../src-main/core/exec/output/messages';
import { FakeSession, FakeSessions, fakeExecSettings, fakeRoute, fakeRouter } from '../../../support/fake-session';

// One run's execution against fake sessions: where it goes, how it is stopped, what it reports.

const python = findLanguage('python')!;
let workspace = '';

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'oi-run-execution-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function setup(route: () => SessionRoute, graceMs = 60_000) {
  const slots = new SessionSlots();
  const execute = createRunExecution({
    router: fakeRouter(route),
    graceMs,
    sessionBase: { tmpRoot: workspace, resourcesDir: workspace },
    environment: () => ({}),
    detectContext: async () => ({ workspace, settings: null, path: '' }),
  });
  const slot = slots.slotFor('c1', 'python');
  const run = (settings: Partial<ExecSettings> = {}, extra: { signal?: AbortSignal; onTerminal?: (text: string) => void } = {}) =>
    execute({
      request: {
        conversationId: 'c1',
        workspace,
        language: 'python',
        code: 'print(1)',
        settings: { ...fakeExecSettings, ...settings },
        ...extra,
      },
      language: python,
      slot,
      shellNote: null,
      asked: 'python',
    });
  return { run, slot };
}

describe('run execution', () => {
  it("hands the code to the slot's session and reads back its text", async () => {
    const sessions = new FakeSessions();
    const { run, slot } = setup(() => fakeRoute(sessions.start));
    const result = run();
    const session = await sessions.nth(0);
    const pending = await session.nthRun(0);
    expect(pending.run).toMatchObject({ code: 'print(1)', executionCount: 1 });
    pending.run.output.terminal('1\r\n');
    pending.finish();
    expect(await result).toMatchObject({ status: 'done', exitCode: 0, forModel: '1', executionCount: 1 });
    expect(slot.active.size).toBe(0);
  });

  it('refuses without starting a session when the route refuses', async () => {
    const sessions = new FakeSessions();
    const { run } = setup(() => fakeRoute(sessions.start, { refusal: 'The sandbox is on, but bwrap is missing.' }));
    expect(await run()).toMatchObject({ status: 'unavailable', forModel: 'The sandbox is on, but bwrap is missing.' });
    expect(sessions.started).toEqual([]);
  });

  it('reports a session that cannot start as died, naming why', async () => {
    const { run, slot } = setup(() => fakeRoute(() => Promise.reject(new Error('spawn failed'))));
    expect(await run()).toMatchObject({ status: 'died', forModel: 'Could not start the python session: spawn failed' });
    expect(slot.session).toBeNull();
  });

  it('does not start a run whose signal was aborted before its turn', async () => {
    const sessions = new FakeSessions();
    const { run } = setup(() => fakeRoute(sessions.start));
    const aborted = new AbortController();
    aborted.abort();
    expect(await run({}, { signal: aborted.signal })).toMatchObject({ status: 'interrupted', forModel: 'Interrupted before it started.' });
    expect(sessions.started).toEqual([]);
  });

  it('interrupts a run that outlives its timeout, keeping the session', async () => {
    const sessions = new FakeSessions();
    const { run, slot } = setup(() => fakeRoute(sessions.start));
    const result = await run({ timeoutMs: 20 });
    const session = sessions.started[0]!;
    expect(result.status).toBe('timeout');
    expect(result.forModel).toBe(`[${timeoutMessage(20, true, 'python')}]`);
    expect(session.interrupts).toBeGreaterThan(0);
    expect(session.disposed).toBe(false);
    expect(await slot.session).toBe(session);
  });

  it('interrupts on abort and tells the terminal view why the run ended', async () => {
    const sessions = new FakeSessions();
    const { run } = setup(() => fakeRoute(sessions.start));
    const abort = new AbortController();
    let terminal = '';
    const result = run({}, { signal: abort.signal, onTerminal: (text) => (terminal += text) });
    await (await sessions.nth(0)).nthRun(0);
    abort.abort();
    const done = await result;
    expect(done.status).toBe('interrupted');
    expect(terminal).toContain(interruptedMessage(true, 'python'));
  });

  it('escalates to killing a session that ignores Ctrl-C, then starts a new one for the next run', async () => {
    const sessions = new FakeSessions({ onInterrupt: 'ignore' });
    const { run, slot } = setup(() => fakeRoute(sessions.start), 10);
    const result = await run({ timeoutMs: 10 });
    const stubborn = sessions.started[0]!;
    expect(result.status).toBe('timeout');
    expect(result.forModel).toBe(`[${timeoutMessage(10, false, 'python')}]`);
    expect([stubborn.childKills, stubborn.kills]).toEqual([1, 1]);
    expect(stubborn.disposed).toBe(true);
    expect(slot.session).toBeNull();
    const next = run();
    const fresh = await sessions.nth(1);
    (await fresh.nthRun(0)).finish();
    expect(await next).toMatchObject({ status: 'done', executionCount: 2 });
  });

  it("puts the slot's pending note first, once, for the model and the person", async () => {
    const sessions = new FakeSessions();
    const { run, slot } = setup(() => fakeRoute(sessions.start));
    slot.pendingNote = 'Note: the python session was restarted.';
    const first = run();
    (await (await sessions.nth(0)).nthRun(0)).finish();
    const result = await first;
    expect(result.forModel).toBe('Note: the python session was restarted.\n(no output)');
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stderr', text: 'Note: the python session was restarted.\n', appNote: true },
    ]);
    const second = run();
    (await sessions.started[0]!.nthRun(1)).finish();
    expect((await second).forModel).toBe('(no output)');
    expect((await second).outputs).toEqual([]);
  });

  it('gives a session the runs of its slot one after another, counting them', async () => {
    const session = new FakeSession();
    const { run } = setup(() => fakeRoute(async () => session));
    const first = run();
    (await session.nthRun(0)).finish({ status: 'failed', exitCode: 3 });
    expect(await first).toMatchObject({ status: 'failed', exitCode: 3, forModel: '(no output)\n[exit code 3]', executionCount: 1 });
    const second = run();
    (await session.nthRun(1)).finish();
    expect((await second).executionCount).toBe(2);
  });
});
