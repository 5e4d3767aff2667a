import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type ScheduleDraft, type ScheduleListing } from '@contract';
import { createDispatcher } from '../../../src-main/core/bridge/dispatch';
import type { HandlerTable } from '../../../src-main/core/bridge/handler-table';
import { schedulesHandlers } from '../../../src-main/core/handlers/schedules-handlers';
import { ScheduleAdmin } from '../../../src-main/core/schedules/schedule-admin';

// The Schedules screen's requests (docs/schedules.md#the-schedules-screen) through the dispatcher both
// transports call, with the app's own scheduler (OI_SCHEDULER=in-app): bad input named, nothing half
// kept, an edit that keeps the task's id, model and creation time. No process is started.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-schedule-requests-'));
const folder = path.join(dataDir, 'ws');
mkdirSync(folder);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const admin = new ScheduleAdmin({
  dataDir,
  command: { program: process.execPath, args: ['-e', 'process.exit(0)'], env: {} },
  env: { OI_SCHEDULER: 'in-app' },
  log: () => undefined,
});
// Only these requests: the dispatcher checks each input against the contract and calls its handler.
const dispatch = createDispatcher(schedulesHandlers(admin) as unknown as HandlerTable);
const ctx = { transport: 'websocket' as const };
const draft: ScheduleDraft = {
  name: 'Weekly digest',
  prompt: 'Summarise the week.',
  workspace: folder,
  when: { kind: 'weekly', days: ['mon'], time: '09:00' },
  policy: DEFAULT_POLICY,
};
const file = path.join(dataDir, 'schedules.json');

async function refused(name: string, input: unknown): Promise<string> {
  const res = await dispatch(name, input, ctx);
  if (res.ok) throw new Error(`${name} was not refused`);
  return res.error.message;
}

describe('schedules requests', () => {
  it('names what is wrong — an interval, an empty prompt, a relative or missing folder — and keeps nothing', async () => {
    expect(await refused('schedules.save', { draft: { ...draft, when: { kind: 'every', unit: 'minutes', n: 7 } } })).toMatch(
      /N to divide an hour/,
    );
    expect(await refused('schedules.save', { draft: { ...draft, prompt: '  ' } })).toMatch(/the prompt is empty/);
    expect(await refused('schedules.save', { draft: { ...draft, workspace: 'reports' } })).toMatch(/must be an absolute path/);
    expect(await refused('schedules.save', { draft: { ...draft, workspace: path.join(folder, 'gone') } })).toMatch(/does not exist/);
    expect(await refused('schedules.save', { draft: { ...draft, when: { kind: 'folder', folder: path.join(folder, 'inbox') } } })).toMatch(
      /the watched folder .* does not exist/,
    );
    expect(await refused('schedules.save', { draft, id: 'no-such-task' })).toMatch(/no scheduled task has the id "no-such-task"/);
    expect(await refused('schedules.run', { id: 'no-such-task' })).toMatch(/no scheduled task has the id/);
    expect(await refused('schedules.remove', { id: '../settings' })).toMatch(/lowercase letters, digits and dashes/);
    expect(existsSync(file)).toBe(false);
  });

  it('adds a task the app runs, edits it keeping its id, model and creation time, and removes it', async () => {
    const added = (await dispatch('schedules.save', { draft }, ctx)) as { ok: true; result: ScheduleListing };
    expect(added.ok).toBe(true);
    expect(added.result.runner).toBe('in-app');
    const [entry] = added.result.schedules;
    expect(entry?.schedule).toMatchObject({ ...draft, model: null, runner: 'in-app' });
    expect(entry?.schedule.id).toMatch(/^weekly-digest-[0-9a-f]{4}$/);
    expect(entry?.next).not.toBeNull();
    const id = entry?.schedule.id ?? '';

    const edited = (await dispatch('schedules.save', { id, draft: { ...draft, when: { kind: 'manual' } } }, ctx)) as {
      ok: true;
      result: ScheduleListing;
    };
    expect(edited.result.schedules).toHaveLength(1);
    expect(edited.result.schedules[0]?.schedule).toEqual({ ...entry?.schedule, when: { kind: 'manual' } });
    expect(edited.result.schedules[0]?.next).toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ schedules: [{ id, when: { kind: 'manual' } }] });

    const removed = (await dispatch('schedules.remove', { id }, ctx)) as { ok: true; result: ScheduleListing };
    expect(removed.result.schedules).toEqual([]);
  });
});
