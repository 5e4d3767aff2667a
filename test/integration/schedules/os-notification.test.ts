import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleRunRecord } from '@contract';
import { tryLock } from '../../../src-main/core/fs/data-folder-lock';
import { notifyRunEndedByOs } from '../../../src-main/core/schedules/os-notification';
import { ScheduleStore } from '../../../src-main/core/schedules/schedule-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';
import { startNotificationDaemon, type NotificationDaemon } from '../../support/notification-daemon';
import { manualTask, scriptedModel } from '../../support/schedule-task';

// A scheduled run that ends while neither the desktop app nor browser mode is open (the OS scheduler
// started it): the run itself notifies through the desktop's notification service — here a real
// freedesktop daemon (dunst) on a private session bus and display. While the app is open it does not,
// so the person is told once, by the app, whose notification opens the conversation.

let llm: ScriptedLlm;
let daemon: NotificationDaemon;
let data: ReturnType<typeof tempDir>;
let store: ScheduleStore;

beforeAll(async () => {
  [llm, daemon] = await Promise.all([startScriptedLlm(), startNotificationDaemon()]);
  data = tempDir('oi-os-notify-');
  store = new ScheduleStore(path.join(data.dir, 'data'));
});
afterAll(async () => {
  await Promise.all([llm?.close(), daemon?.close()]);
  data?.remove();
});

async function task(name: string): Promise<Schedule> {
  const workspace = path.join(data.dir, name);
  mkdirSync(workspace, { recursive: true });
  const schedule = manualTask({ id: name, name: `Report ${name}`, workspace, model: scriptedModel(llm) });
  await store.add(schedule);
  return schedule;
}

const record = (scheduleId: string, result: string): ScheduleRunRecord => ({
  scheduleId,
  trigger: 'time',
  dueAt: null,
  startedAt: new Date().toISOString(),
  endedAt: new Date().toISOString(),
  conversationId: 'c0ffee00-0000-4000-8000-000000000000',
  result,
  exitCode: result === 'done' ? 0 : 1,
  costUsd: 0.25,
});

describe('a scheduled run’s end with the app closed', () => {
  it('is told by the run itself, through the desktop’s notification service, in the app’s words', async () => {
    const s = await task('closed');
    llm.enqueue({ kind: 'text', text: 'All is well.' });
    // What the desktop registered for the app's links (the packaged app's desktop file does it), found by
    // the real xdg-open: here a program that writes down the link it was given.
    const desktop = path.join(data.dir, 'desktop');
    const opened = path.join(desktop, 'opened');
    mkdirSync(path.join(desktop, 'share', 'applications'), { recursive: true });
    mkdirSync(path.join(desktop, 'config'), { recursive: true });
    writeFileSync(path.join(desktop, 'handler'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(path.join(desktop, 'handler'), 0o755);
    writeFileSync(
      path.join(desktop, 'share', 'applications', 'oi-link-test.desktop'),
      `[Desktop Entry]\nType=Application\nName=Link test\nExec=${path.join(desktop, 'handler')} %u\nMimeType=x-scheme-handler/open-interpreter;\n`,
    );
    writeFileSync(
      path.join(desktop, 'config', 'mimeapps.list'),
      '[Default Applications]\nx-scheme-handler/open-interpreter=oi-link-test.desktop\n',
    );
    const xdg = { XDG_DATA_HOME: path.join(desktop, 'share'), XDG_CONFIG_HOME: path.join(desktop, 'config') };
    const run = await runOi(['schedule', 'run', s.id], cliEnv(store.dataDir, { OI_SCHEDULER: 'in-app', ...daemon.env, ...xdg }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('oi: the run’s end was handed to the desktop’s notification service');
    const [ran] = await store.runs(s.id);
    expect(ran).toMatchObject({ result: 'done', exitCode: 0 });
    // Clicked, it hands the OS the run's conversation link, which starts what is registered for it.
    expect(existsSync(opened)).toBe(false);
    await daemon.click();
    await expect.poll(() => existsSync(opened), { timeout: 30_000 }).toBe(true);
    expect(readFileSync(opened, 'utf8')).toBe(`open-interpreter://conversation/${ran?.conversationId}`);
    const mine = (await daemon.shown()).filter((n) => n.body.includes(s.name));
    expect(mine).toEqual([
      {
        appname: 'Open Interpreter',
        summary: 'Open Interpreter',
        body: `Scheduled task “${s.name}” finished ($${ran?.costUsd.toFixed(4)}).`,
      },
    ]);
  });

  it('is not told twice: while the app (the holder of the schedule service) is open, the app’s notifier says it', async () => {
    const dataDir = path.join(data.dir, 'open-app');
    mkdirSync(dataDir, { recursive: true });
    // This test's process stands for the open app: it holds the lock the app holds while it runs the tasks.
    const lock = await tryLock(path.join(dataDir, 'schedule-service.lock'), 'running the scheduled tasks');
    if (!('release' in lock)) throw new Error('the lock was not free');
    const tell = (result: string) =>
      notifyRunEndedByOs({
        dataDir,
        record: record('open-app', result),
        name: 'Open app',
        notifyOn: ['turn-done', 'turn-failed'],
        env: daemon.env,
      });
    try {
      expect(await tell('done')).toEqual({ sent: false, why: `the app (pid ${process.pid}) is open and notifies it` });
    } finally {
      await lock.release();
    }
    // Twin: the app closed (the lock released), the same kind of end is told.
    expect(await tell('budget')).toEqual({ sent: true });
    // Handed to notify-send, started on its own: shown when it has passed it on.
    const shown = async () => (await daemon.shown()).filter((n) => n.body.includes('Open app')).map((n) => n.body);
    await expect.poll(shown, { timeout: 30_000 }).toEqual(['Scheduled task “Open app” ended: budget.']);
  });

  it('follows Settings’ “Notify me when”, and says why nothing was sent without a session bus', async () => {
    const dataDir = path.join(data.dir, 'settings');
    const base = { dataDir, name: 'Quiet one', env: daemon.env };
    expect(await notifyRunEndedByOs({ ...base, record: record('quiet', 'done'), notifyOn: ['turn-failed'] })).toEqual({
      sent: false,
      why: 'Settings\' "Notify me when" leaves out turn-done',
    });
    expect(await notifyRunEndedByOs({ ...base, record: record('quiet', 'done'), notifyOn: ['turn-done'], env: {} })).toEqual({
      sent: false,
      why: 'no desktop session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
    });
    expect((await daemon.shown()).filter((n) => n.body.includes('Quiet one'))).toEqual([]);
  });
});
