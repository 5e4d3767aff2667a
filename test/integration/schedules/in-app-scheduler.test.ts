import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Schedule, ScheduleWhen } from '@contract';
import type { SchedulerClock } from '../../../src-main/core/schedules/in-app-scheduler';
import { startScheduleService, type ScheduleService } from '../../../src-main/core/schedules/schedule-service';
import { ScheduleStore } from '../../../src-main/core/schedules/schedule-store';
import { EventBus } from '../../../src-main/core/bridge/event-bus';
import { bindOsNotifications } from '../../../src-main/electron/notifications';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, OI, runOi, tempDir } from '../../support/cli-process';
import { manualTask, scriptedModel } from '../../support/schedule-task';

// The in-app scheduler end to end: a clock the test moves (days pass in a moment), the real
// `oi schedule run` processes it starts, the scripted model. A time reached runs the task once; times
// that passed while the app was closed are caught up once, marked missed, and not again after a
// restart; a new file in a watched folder starts its task.

/** A clock the test moves: timers fire when the time passes theirs. */
class FakeClock implements SchedulerClock {
  private timers: Array<{ at: number; fire: () => void }> = [];
  constructor(private t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  setTimer(ms: number, fire: () => void): () => void {
    const timer = { at: this.t + ms, fire };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  }
  /** Moves to `to`; each timer due by then fires (the scheduler re-arms as it goes). */
  set(to: Date): void {
    this.t = to.getTime();
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const timer of due) timer.fire();
  }
}

let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
let store: ScheduleStore;
let service: ScheduleService | null = null;
const logged: string[] = [];

beforeAll(async () => {
  llm = await startScriptedLlm();
  data = tempDir('oi-in-app-');
  store = new ScheduleStore(path.join(data.dir, 'data'));
});
afterEach(async () => {
  await service?.close();
  await Promise.all(service?.scheduler.runs() ?? []);
  service = null;
});
afterAll(async () => {
  await llm.close();
  data.remove();
});

async function task(id: string, when: ScheduleWhen, createdAt: Date): Promise<Schedule> {
  const workspace = path.join(data.dir, id);
  mkdirSync(workspace, { recursive: true });
  const schedule = manualTask({ id, name: `Task ${id}`, workspace, model: scriptedModel(llm), when, createdAt: createdAt.toISOString() });
  await store.add(schedule);
  return schedule;
}

async function start(clock: SchedulerClock, events?: EventBus): Promise<ScheduleService> {
  service = await startScheduleService({
    ...(events ? { events } : {}),
    dataDir: store.dataDir,
    command: { program: process.execPath, args: OI, env: cliEnv(store.dataDir) },
    clock,
    webhook: false,
    log: (line) => logged.push(line),
  });
  return service;
}

const conversation = (id: string | null) =>
  JSON.parse(readFileSync(path.join(store.dataDir, 'conversations', `${id ?? ''}.json`), 'utf8')) as Conversation;
const local = (d: number, h: number, m: number, s = 0) => new Date(2026, 11, d, h, m, s);

describe('the in-app scheduler', () => {
  it('runs a task when its time comes, catches up a missed time once (marked missed), and not again after a restart', async () => {
    // Weekdays at 09:00, made on Friday 4 December at 08:00; the app was closed from then until Monday 08:30.
    const s = await task('weekdays', { kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '09:00' }, local(4, 8, 0));
    llm.enqueue({ kind: 'text', text: 'Friday’s report, late.' }, { kind: 'text', text: 'Monday’s report.' });
    const clock = new FakeClock(local(7, 8, 30).getTime());
    const scheduler = (await start(clock)).scheduler;
    await Promise.all(scheduler.runs());
    const [missed] = await store.runs(s.id);
    expect(missed).toMatchObject({ trigger: 'missed', dueAt: local(4, 9, 0).toISOString(), result: 'done', exitCode: 0 });
    expect(conversation(missed?.conversationId ?? null).scheduled).toEqual({ scheduleId: s.id, name: s.name, trigger: 'missed' });
    expect(logged).toContain(`${s.name}: a run was missed while the app was closed or the machine slept; running it once now`);

    // Not yet: 08:59:59.
    clock.set(local(7, 8, 59, 59));
    await scheduler.check();
    expect(scheduler.runs()).toHaveLength(0);
    // 09:00:05: the timer fires, on time.
    clock.set(local(7, 9, 0, 5));
    await expect.poll(async () => (await store.runs(s.id)).length, { timeout: 60_000 }).toBe(2);
    const runs = await store.runs(s.id);
    expect(runs.map((r) => [r.trigger, r.dueAt])).toEqual([
      ['missed', local(4, 9, 0).toISOString()],
      ['time', local(7, 9, 0).toISOString()],
    ]);
    // The person sees it in the list.
    const list = await runOi(['schedule', 'list'], cliEnv(store.dataDir));
    expect(list.stdout).toMatch(/last run .* time: done/);

    // The app restarts at 10:00: nothing was missed since 09:00's run, so nothing runs.
    await service?.close();
    const again = await start(new FakeClock(local(7, 10, 0).getTime()));
    expect(again.scheduler.runs()).toHaveLength(0);
    expect(await store.runs(s.id)).toHaveLength(2);
    expect(llm.pending()).toBe(0);
  });

  it('starts a folder task when a new file appears in the folder, naming the file to the model', async () => {
    const inbox = path.join(data.dir, 'inbox');
    mkdirSync(inbox);
    writeFileSync(path.join(inbox, 'old.csv'), 'was there');
    const s = await task('inbox', { kind: 'folder', folder: inbox }, new Date());
    llm.enqueue({ kind: 'text', text: 'Read it.' });
    const scheduler = (await start(new FakeClock(Date.now()))).scheduler;
    const before = llm.requests.length;
    writeFileSync(path.join(inbox, 'sales.csv'), 'a,b\n1,2\n');
    await expect.poll(async () => (await store.runs(s.id)).length, { timeout: 60_000 }).toBe(1);
    await Promise.all(scheduler.runs());
    const [run] = await store.runs(s.id);
    expect(run).toMatchObject({ trigger: 'folder', result: 'done' });
    // One run, for the new file only (old.csv was there before).
    const users = llm.requests
      .slice(before)
      .flatMap((r) => (r.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [])
      .filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual([`report\n\nThe new file: ${path.join(inbox, 'sales.csv')}`]);
  });

  it('notifies when a run ends, through the desktop notifier, and the click opens the run’s conversation', async () => {
    const s = await task('notified', { kind: 'manual' }, new Date());
    llm.enqueue({ kind: 'text', text: 'Reported.' });
    const bus = new EventBus();
    const notes: Array<{ title: string; body: string; click: () => void }> = [];
    const opened: string[] = [];
    // The desktop app's notifier as main.ts binds it; only Electron's Notification is a stand-in (Electron cannot run here).
    const unbind = bindOsNotifications({
      events: bus,
      notifyOn: () => ['turn-done', 'turn-failed'],
      supported: () => true,
      watching: () => false,
      titleOf: async () => 'Open Interpreter',
      open: (id) => opened.push(id),
      create: (options) => {
        const listeners: Record<string, () => void> = {};
        return {
          show: () => notes.push({ title: options.title ?? '', body: options.body ?? '', click: () => listeners.click?.() }),
          on: (event: 'click' | 'close', listener: () => void) => (listeners[event] = listener),
        };
      },
    });
    try {
      const scheduler = (await start(new FakeClock(Date.now()), bus)).scheduler;
      expect(scheduler.runNow(s, 'manual')).toBe(true);
      await Promise.all(scheduler.runs());
      // The run is its own oi process: the app hears of its end from the record it leaves.
      await expect.poll(() => notes.length, { timeout: 30_000 }).toBe(1);
      const [run] = await store.runs(s.id);
      expect(notes[0]?.body).toBe(`Scheduled task “${s.name}” finished ($${(run?.costUsd ?? 0).toFixed(4)}).`);
      notes[0]?.click();
      expect(opened).toEqual([run?.conversationId]);
    } finally {
      unbind();
    }
  });
});
