import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, type ScheduleFile } from '@contract';
import { ScheduleStore } from '../../src-main/core/schedules/schedule-store';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/llm-server';
import { cliEnv, OI } from '../support/cli-process';
import { expectText } from '../support/page-expect';
import { sendMessage } from '../support/ui-harness';
import { useUiApp } from '../support/ui-fixture';

// The Schedules screen in browser mode (docs/schedules.md#the-schedules-screen), in real Chromium: a
// task made, refused when a field is wrong (nothing kept), edited, shown with a missed time caught up,
// run now by the real `oi schedule run` against the scripted model (its result and cost shown, its
// conversation opened), and removed. The app's own scheduler is asked for (OI_SCHEDULER=in-app), so
// nothing is put into this machine's systemd.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-e2e-schedules-'));
const folder = path.join(dataDir, 'reports');
mkdirSync(folder);
let llm: ScriptedLlm | null = null;
afterAll(async () => {
  await llm?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const storeFile = path.join(dataDir, 'schedules.json');
const stored = (): ScheduleFile['schedules'] =>
  existsSync(storeFile) ? (JSON.parse(readFileSync(storeFile, 'utf8')) as ScheduleFile).schedules : [];

describe('the Schedules screen', () => {
  const ui = useUiApp(
    async () => {
      llm = await startScriptedLlm();
      // What the task's own `oi` reads: the model server, no sandbox choice to ask about.
      writeFileSync(
        path.join(dataDir, 'settings.json'),
        JSON.stringify({ ...defaultSettings, provider: 'openai', model: 'gpt-test', baseUrl: llm.openaiBaseUrl }),
      );
      return {
        llm,
        dataDir,
        schedules: { command: { program: process.execPath, args: OI, env: cliEnv(dataDir) }, env: { OI_SCHEDULER: 'in-app' } },
      };
    },
    { start: 'once' },
  );

  it('makes, refuses, edits, runs and removes a task; shows a missed run and the result and cost of a run', async () => {
    const page = ui.page;
    await page.getByRole('button', { name: 'Schedules' }).click();
    const screen = page.getByTestId('schedules-screen');
    await expectText(screen, 'No scheduled tasks yet.');
    await expectText(page.getByTestId('schedules-runner'), 'OI_SCHEDULER=in-app');

    // Made: every Monday at 09:00, in the reports folder, without the sandbox.
    await screen.getByRole('button', { name: 'New task' }).click();
    const form = page.getByTestId('schedule-form');
    await form.getByLabel('Task name').fill('Monday report');
    await form.getByLabel('Task prompt').fill('Summarise the week in one line.');
    await form.getByLabel('Task folder').fill(folder);
    for (const day of ['tue', 'wed', 'thu', 'fri']) await form.getByLabel(day, { exact: true }).uncheck();
    await form.getByLabel('Time of day').fill('09:00');
    await form.getByLabel('Sandbox required').uncheck();
    await form.getByRole('button', { name: 'Add task' }).click();
    await expectText(screen.getByRole('status'), 'Saved “Monday report”.');
    const [task] = stored();
    expect(task).toMatchObject({
      name: 'Monday report',
      workspace: folder,
      when: { kind: 'weekly', days: ['mon'], time: '09:00' },
      policy: { sandbox: 'off', code: 'auto-run' },
      runner: 'in-app',
      model: null,
    });
    const id = task?.id ?? '';
    const row = page.getByTestId(`schedule-${id}`);
    await expectText(row, 'mon at 09:00 · in-app');
    await expectText(row, /next /);

    // A wrong field is named, and nothing is kept of the change.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByTestId('schedule-form');
    await edit.getByLabel('Task folder').fill(path.join(folder, 'missing'));
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectText(screen.getByRole('alert'), `the folder ${path.join(folder, 'missing')} does not exist`);
    expect(stored()).toEqual([task]);

    // Edited: Mondays and Fridays, the same task.
    await edit.getByLabel('Task folder').fill(folder);
    await edit.getByLabel('fri', { exact: true }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectText(row, 'mon,fri at 09:00');
    expect(stored()).toEqual([{ ...task, when: { kind: 'weekly', days: ['mon', 'fri'], time: '09:00' } }]);

    // A time missed while the machine slept, caught up by the scheduler: shown as such.
    await new ScheduleStore(dataDir).recordRun({
      scheduleId: id,
      trigger: 'missed',
      dueAt: '2026-11-30T08:00:00.000Z',
      startedAt: '2026-11-30T10:00:00.000Z',
      endedAt: '2026-11-30T10:01:00.000Z',
      conversationId: null,
      result: 'done',
      exitCode: 0,
      costUsd: 0.0123,
    });
    await expectText(row.getByRole('list', { name: 'Last runs of Monday report' }), /missed at .*, caught up · done · \$0\.0123/);

    // Run now: the real `oi schedule run`, against the scripted model.
    llm?.enqueue({ kind: 'text', text: 'The week, in one line.' });
    await row.getByRole('button', { name: 'Run now' }).click();
    const runs = row.getByRole('list', { name: 'Last runs of Monday report' });
    await expectText(runs.locator('li').first(), /manual · done · \$\d+\.\d{4}/, 60_000);
    await runs.locator('li').first().getByRole('button', { name: 'Open' }).click();
    await expectText(page.getByTestId('assistant-message').last(), 'The week, in one line.');

    // Removed: from the list and the store.
    await page.getByRole('button', { name: 'Schedules' }).click();
    await page.getByTestId(`schedule-${id}`).getByRole('button', { name: 'Remove' }).click();
    await expectText(page.getByTestId('schedules-screen'), 'No scheduled tasks yet.');
    expect(stored()).toEqual([]);
  });

  // The card a conversation shows when the model proposes a task (chat/ScheduleCard.tsx, a chunk of its
  // own loaded when first needed): what will run, when and how, and nothing made until the person says.
  it('shows a proposed task from a conversation; Decline makes nothing, Schedule it makes that task', async () => {
    const page = ui.page;
    const propose = (name: string) =>
      llm?.enqueue(
        {
          kind: 'tool',
          calls: [{ id: `p-${name}`, name: 'schedule_task', arguments: { name, prompt: 'Summarise the logs.', days: 'mon', at: '07:30' } }],
        },
        { kind: 'text', text: `Done with ${name}.` },
      );
    await page.getByRole('button', { name: 'New conversation' }).click();

    propose('Log digest');
    await sendMessage(page, 'Summarise the logs every Monday at 7:30.');
    const first = page.getByTestId('schedule-card').first();
    await expectText(first, 'Waiting for you');
    const rows = first.locator('.schedule-proposal');
    await expectText(rows, /TaskLog digest/);
    await expectText(rows, /PromptSummarise the logs\./);
    await expectText(rows, /Coderuns without asking, in the sandbox/);
    expect(stored()).toEqual([]);
    await first.getByRole('button', { name: 'Decline' }).click();
    await expectText(first, 'Not scheduled');
    await expectText(page.getByTestId('assistant-message').last(), 'Done with Log digest.');
    expect(stored()).toEqual([]);
    expect(await first.getByRole('button', { name: 'Schedule it' }).count()).toBe(0);

    propose('Log digest 2');
    await sendMessage(page, 'Yes, do schedule it this time.');
    const second = page.getByTestId('schedule-card').nth(1);
    await expectText(second, 'Waiting for you');
    await second.getByRole('button', { name: 'Schedule it' }).click();
    await expectText(second, 'Scheduled');
    await expectText(page.getByTestId('assistant-message').last(), 'Done with Log digest 2.');
    expect(stored()).toEqual([
      expect.objectContaining({
        name: 'Log digest 2',
        prompt: 'Summarise the logs.',
        when: { kind: 'weekly', days: ['mon'], time: '07:30' },
      }),
    ]);
  });
});
