import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecService, type ExecService, type RunRequest } from '../../../../src-main/core/exec';
import { FakeSessions, fakeExecSettings, fakeRoute, fakeRouter } from '../../../support/fake-session';

// The engine's queueing, seen from outside: runs of one session wait their turn, runs of different
// sessions do not wait for each other, and nothing a run does holds up the ones after it.

// A macrotask turn: every promise reaction queued so far has run.
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let workspace = '';
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'oi-exec-queue-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function engine(
  sessions = new FakeSessions(),
  start = sessions.start,
): {
  sessions: FakeSessions;
  service: ExecService;
  run(language: string, code: string, conversationId?: string): Promise<import('../../../../src-main/core/exec').RunResult>;
} {
  const service = createExecService({ resourcesDir: workspace, tmpRoot: workspace, router: fakeRouter(() => fakeRoute(start)) });
  const run = (language: string, code: string, conversationId = 'c1') => {
    const request: RunRequest = { conversationId, workspace, language, code, settings: fakeExecSettings };
    return service.run(request);
  };
  return { sessions, service, run };
}

describe('exec service queueing (fake sessions)', () => {
  it('runs the cells of one session one at a time, in the order asked', async () => {
    const { sessions, service, run } = engine();
    const results = [run('python', 'a = 1'), run('py', 'b = 2'), run('python', 'print(a + b)')];
    const session = await sessions.nth(0);
    const first = await session.nthRun(0);
    await settle();
    expect(session.runs.map((r) => r.run.code)).toEqual(['a = 1']);
    first.finish();
    (await session.nthRun(1)).finish();
    const third = await session.nthRun(2);
    third.run.output.terminal('3\r\n');
    third.finish();
    const done = await Promise.all(results);
    expect(done.map((r) => r.executionCount)).toEqual([1, 2, 3]);
    expect(done[2]!.forModel).toBe('3');
    expect(session.maxConcurrent).toBe(1);
    expect(sessions.started).toHaveLength(1);
    await service.dispose();
  });

  it('does not make runs of other languages or other conversations wait', async () => {
    const { sessions, service, run } = engine();
    const python = run('python', 'import time; time.sleep(99)');
    const js = run('javascript', 'console.log(1)');
    const otherConversation = run('python', 'print(2)', 'c2');
    // All three reach a session while the first is still going.
    const started = await Promise.all([0, 1, 2].map((i) => sessions.nth(i).then((s) => s.nthRun(0))));
    expect(started.map((r) => r.run.code).sort()).toEqual(['console.log(1)', 'import time; time.sleep(99)', 'print(2)']);
    for (const pending of started) pending.finish();
    expect((await Promise.all([python, js, otherConversation])).map((r) => r.status)).toEqual(['done', 'done', 'done']);
    await service.dispose();
  });

  it('goes on with the queue after a run whose session could not start', async () => {
    const sessions = new FakeSessions();
    let attempts = 0;
    const { service, run } = engine(sessions, () => (++attempts === 1 ? Promise.reject(new Error('no runtime today')) : sessions.start()));
    const failed = run('python', 'x = 1');
    const next = run('python', 'x = 2');
    expect(await failed).toMatchObject({ status: 'died', forModel: 'Could not start the python session: no runtime today' });
    (await (await sessions.nth(0)).nthRun(0)).finish();
    expect(await next).toMatchObject({ status: 'done' });
    await service.dispose();
  });

  it('an interrupt stops the running cell; the queued one then runs', async () => {
    const { sessions, service, run } = engine();
    const running = run('python', 'while True: pass');
    const queued = run('python', 'print(1)');
    const session = await sessions.nth(0);
    await session.nthRun(0);
    service.interrupt('c1', 'python');
    expect((await running).status).toBe('interrupted');
    const second = await session.nthRun(1);
    expect(second.run.code).toBe('print(1)');
    second.finish();
    expect((await queued).status).toBe('done');
    await service.dispose();
  });

  it('closing a conversation ends its sessions; after dispose runs are refused', async () => {
    const { sessions, service, run } = engine();
    const first = run('python', 'x = 1');
    const session = await sessions.nth(0);
    (await session.nthRun(0)).finish();
    await first;
    await service.closeConversation('c1');
    expect(session.disposed).toBe(true);
    await service.dispose();
    expect(await run('python', 'x = 2')).toMatchObject({ status: 'died', forModel: 'The execution engine has shut down.' });
    expect(sessions.started).toHaveLength(1);
  });

  it('asks the router to choose only for shell cells, with their context; other cells keep their language', async () => {
    const sessions = new FakeSessions();
    const chosen: Array<{ language: string; path: string }> = [];
    let routes = 0;
    const router = fakeRouter(() => fakeRoute(sessions.start));
    const service = createExecService({
      resourcesDir: workspace,
      tmpRoot: workspace,
      router: {
        choose: async (request, language, context) => {
          chosen.push({ language: language.name, path: context.path });
          return router.choose(request, language, context);
        },
        route: async (request, language) => {
          routes++;
          return router.route(request, language);
        },
      },
    });
    const settings = { ...fakeExecSettings, env: { ...fakeExecSettings.env, PATH: '/oi-test/bin' } };
    const running = service.run({ conversationId: 'c1', workspace, language: 'python', code: 'print(1)', settings });
    (await (await sessions.nth(0)).nthRun(0)).finish();
    expect((await running).status).toBe('done');
    expect(chosen).toEqual([]);
    // One route for the run itself: none for admitting it.
    expect(routes).toBe(1);
    const shell = service.run({ conversationId: 'c1', workspace, language: 'shell', code: 'echo 1', settings });
    (await (await sessions.nth(1)).nthRun(0)).finish();
    expect((await shell).status).toBe('done');
    expect(chosen).toEqual([{ language: 'shell', path: '/oi-test/bin' }]);
    await service.dispose();
  });
});
