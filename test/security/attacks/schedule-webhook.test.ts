import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule } from '@contract';
import { startScheduleService, type ScheduleService } from '../../../src-main/core/schedules/schedule-service';
import { ScheduleStore } from '../../../src-main/core/schedules/schedule-store';
import { webhookHandler, webhookRecord } from '../../../src-main/core/schedules/webhook';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, OI, tempDir } from '../../support/cli-process';
import { manualTask, scriptedModel } from '../../support/schedule-task';

// The local webhook starts a task for whoever holds its token. Any local process (and any web page, by
// a form posted to 127.0.0.1) can send it a request: without the token, or with another, nothing may
// start. The attack: requests with no token, a wrong one of the right length, the token in the URL,
// the wrong method — then the right request, so the count of runs shows the others started none. The
// twin: the same handler with the token check taken out starts the task for a request with no token.

let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
let store: ScheduleStore;
let service: ScheduleService;
let task: Schedule;

beforeAll(async () => {
  llm = await startScriptedLlm();
  data = tempDir('oi-webhook-');
  store = new ScheduleStore(path.join(data.dir, 'data'));
  task = manualTask({
    id: 'deploy-check',
    name: 'Deploy check',
    prompt: 'check the deploy',
    workspace: data.dir,
    model: scriptedModel(llm),
  });
  await store.add(task);
  service = await startScheduleService({
    dataDir: store.dataDir,
    command: { program: process.execPath, args: OI, env: cliEnv(store.dataDir) },
    log: () => undefined,
  });
});
afterAll(async () => {
  await service.close();
  await Promise.all(service.scheduler.runs());
  await llm.close();
  data.remove();
});

function post(port: number, urlPath: string, headers: Record<string, string> = {}, method = 'POST'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function runsEnded(count: number): Promise<void> {
  await expect.poll(async () => (await store.runs(task.id)).length, { timeout: 60_000 }).toBe(count);
  await Promise.all(service.scheduler.runs());
}

describe('the schedule webhook', () => {
  it('starts nothing without its token, with a wrong one, or with it in the URL; starts the task with it', async () => {
    const port = service.webhook?.port ?? 0;
    const { token } = await webhookRecord(store.dataDir);
    const wrong = token.replace(/./g, (c) => (c === 'a' ? 'b' : 'a'));
    expect(await post(port, `/schedules/${task.id}/run`)).toBe(401);
    expect(await post(port, `/schedules/${task.id}/run`, { authorization: `Bearer ${wrong}` })).toBe(401);
    expect(await post(port, `/schedules/${task.id}/run`, { authorization: token })).toBe(401);
    expect(await post(port, `/schedules/${task.id}/run?token=${token}`)).toBe(404);
    expect(await post(port, `/schedules/${task.id}/run`, { authorization: `Bearer ${token}` }, 'GET')).toBe(404);
    // An unknown task is not told apart from a known one without the token.
    expect(await post(port, '/schedules/no-such-task/run')).toBe(401);
    expect(service.scheduler.runs()).toHaveLength(0);

    llm.enqueue({ kind: 'text', text: 'The deploy is fine.' });
    expect(await post(port, `/schedules/${task.id}/run`, { authorization: `Bearer ${token}` })).toBe(202);
    await runsEnded(1);
    // One run: the one with the token. None of the requests before started anything.
    expect((await store.runs(task.id)).map((r) => [r.trigger, r.result])).toEqual([['webhook', 'done']]);
    expect(llm.pending()).toBe(0);
  });

  it('listens on the loopback address only', () => {
    expect(service.webhook?.port).toBeGreaterThan(0);
    // Bound to the loopback address, not to every interface: other machines cannot reach it.
    expect(service.webhook?.host).toBe('127.0.0.1');
  });

  it('twin: the same handler without the token check starts the task for a request with no token', async () => {
    const start = async (id: string) =>
      id === task.id && service.scheduler.runNow(task, 'webhook') ? ('started' as const) : ('busy' as const);
    const unguarded = http.createServer(webhookHandler(start, () => true));
    await new Promise<void>((resolve) => unguarded.listen(0, '127.0.0.1', resolve));
    try {
      llm.enqueue({ kind: 'text', text: 'Started by anyone.' });
      expect(await post((unguarded.address() as AddressInfo).port, `/schedules/${task.id}/run`)).toBe(202);
      await runsEnded(2);
      expect((await store.runs(task.id)).at(-1)).toMatchObject({ trigger: 'webhook', result: 'done' });
    } finally {
      await new Promise((resolve) => unguarded.close(resolve));
    }
  });
});
