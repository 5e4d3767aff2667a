import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation, Schedule, UnattendedPolicy } from '@contract';
import { ScheduleStore } from '../../../src-main/core/schedules/schedule-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';
import { installed } from '../../support/installed';
import { manualTask, scriptedModel } from '../../support/schedule-task';

const BWRAP = installed('bwrap');

// `oi schedule add|list|remove|run`, the built oi (or the source when the build is stale) against the
// scripted model: a run is a conversation of its own marked with its task, recorded with its result
// and cost, and held to the task's unattended policy — nobody is asked, input gets end-of-file, code
// runs in the sandbox or is refused, the budget and the time limit end the run.

// gpt-4o at $2.50 / $10 per million tokens: 100k in + 10k out is $0.35 a model call.
const USAGE = { input: 100_000, output: 10_000 };
let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
let store: ScheduleStore;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startScriptedLlm({ usage: USAGE });
  data = tempDir('oi-schedule-');
  store = new ScheduleStore(path.join(data.dir, 'data'));
  // The OS scheduler is not asked in these tests: the in-app one runs them.
  env = cliEnv(store.dataDir, { OI_SCHEDULER: 'in-app' });
});
afterAll(async () => {
  await llm.close();
  data.remove();
});

let n = 0;
async function task(policy: Partial<UnattendedPolicy>, prompt = 'do the job'): Promise<Schedule> {
  const workspace = path.join(data.dir, `ws-${++n}`);
  mkdirSync(workspace, { recursive: true });
  const schedule = manualTask({
    id: `job-${n}`,
    name: `Job ${n}`,
    prompt,
    workspace,
    model: scriptedModel(llm),
    policy: { sandbox: 'required', code: 'auto-run', budgetUsd: 5, timeLimitMinutes: 10, ...policy },
  });
  await store.add(schedule);
  return schedule;
}

const shell = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

function conversation(id: string): Conversation {
  return JSON.parse(readFileSync(path.join(store.dataDir, 'conversations', `${id}.json`), 'utf8')) as Conversation;
}
const cells = (conv: Conversation) => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const outputText = (cell: CellItem | undefined) => JSON.stringify(cell?.outputs ?? []);

describe('oi schedule add, list and remove', () => {
  it('refuses a bad time naming the option, and keeps nothing of it', async () => {
    // Each refusal's words: test/unit/schedules/schedule-args.test.ts; here, what oi does with one.
    const bad = await runOi(
      ['schedule', 'add', '--name', 'Report', '--prompt', 'p', '--workspace', data.dir, '--days', 'weekdays', '--at', '9:00'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('oi schedule: --at: a time is HH:MM on a 24-hour clock, 00:00 to 23:59\n');
    expect(existsSync(store.file)).toBe(false);
  });

  it('adds a weekday task, says the app runs it where no OS scheduler answers, lists it and removes it', async () => {
    const add = await runOi(
      [
        'schedule',
        'add',
        '--name',
        'Morning report',
        '--prompt',
        'summarise',
        '--workspace',
        data.dir,
        '--days',
        'weekdays',
        '--at',
        '09:00',
        '--report',
      ],
      env,
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const id = /Added (\S+): weekdays at 09:00/.exec(add.stdout)?.[1] ?? '';
    expect(id).toMatch(/^morning-report-[0-9a-f]{4}$/);
    expect(add.stdout).toContain('It runs while the desktop app or browser mode (npm run serve) is open: OI_SCHEDULER=in-app');
    const list = await runOi(['schedule', 'list'], env);
    expect(list.stdout).toContain(`${id}  Morning report\n  weekdays at 09:00 · in-app · next `);
    expect(list.stdout).toContain(`in ${data.dir} · code refused, report only · sandbox required · $1 · 30 min`);
    const removed = await runOi(['schedule', 'remove', id], env);
    expect(removed.stdout).toBe(`Removed ${id}\n`);
    expect((await store.list()).map((s) => s.id)).not.toContain(id);
  });
});

describe('oi schedule run: the unattended policy', () => {
  it.skipIf(!BWRAP)(
    'runs in the sandbox without asking, gives input end-of-file, and records a conversation marked scheduled with its cost',
    async () => {
      const s = await task({});
      llm.enqueue(shell('c1', 'touch ran.txt; if read -r line; then echo "got:$line"; else echo eof-seen; fi'), {
        kind: 'text',
        text: 'Done.',
      });
      const run = await runOi(['schedule', 'run', s.id], env);
      expect(run.code).toBe(0);
      expect(existsSync(path.join(s.workspace, 'ran.txt'))).toBe(true);
      const [record] = await store.runs(s.id);
      expect(record).toMatchObject({ scheduleId: s.id, trigger: 'manual', result: 'done', exitCode: 0 });
      expect(record?.costUsd).toBeCloseTo(0.7, 6);
      const conv = conversation(record?.conversationId ?? '');
      expect(conv.scheduled).toEqual({ scheduleId: s.id, name: s.name, trigger: 'manual' });
      expect(conv.title).toMatch(/^Job \d+ · /);
      const [cell] = cells(conv);
      expect(cell).toMatchObject({ status: 'done', approval: 'auto' });
      expect(cell?.limits?.sandbox).toMatch(/^bubblewrap/);
      expect(outputText(cell)).toContain('eof-seen');
    },
  );

  it('refuses code and only reports when the task says so: nothing runs, the run ends "declined"', async () => {
    const s = await task({ code: 'report', sandbox: 'off' });
    llm.enqueue(shell('c1', 'touch ran.txt'), { kind: 'text', text: 'I could not run it.' });
    const run = await runOi(['schedule', 'run', s.id], env);
    expect(run.code).toBe(3);
    expect(existsSync(path.join(s.workspace, 'ran.txt'))).toBe(false);
    const [record] = await store.runs(s.id);
    expect(record).toMatchObject({ result: 'declined', exitCode: 3 });
    expect(cells(conversation(record?.conversationId ?? ''))[0]?.status).toBe('skipped');
  });

  it('stops at the task’s budget', async () => {
    const s = await task({ budgetUsd: 0.5, sandbox: 'off' });
    // A third reply is never asked for: the budget is spent after two calls.
    llm.enqueue(shell('c1', 'echo one'), shell('c2', 'echo two'));
    const run = await runOi(['schedule', 'run', s.id], env);
    expect(run.code).toBe(1);
    const [record] = await store.runs(s.id);
    expect(record).toMatchObject({ result: 'budget', exitCode: 1 });
    expect(record?.costUsd).toBeCloseTo(0.7, 6);
    expect(llm.pending()).toBe(0);
  });

  it('stops at the task’s time limit, the code too', async () => {
    const s = await task({ timeLimitMinutes: 0.1, sandbox: 'off' });
    llm.enqueue(shell('c1', 'sleep 300; touch late.txt'));
    const run = await runOi(['schedule', 'run', s.id], env);
    expect(run.stderr).toContain("The run's time limit (6 s) is reached: stopping.");
    const [record] = await store.runs(s.id);
    expect(record).toMatchObject({ result: 'time-limit', exitCode: 1 });
    expect(cells(conversation(record?.conversationId ?? ''))[0]?.status).not.toBe('done');
    expect(readdirSync(s.workspace)).not.toContain('late.txt');
  });

  it('names the task when there is none, and records a run that could not start', async () => {
    const none = await runOi(['schedule', 'run', 'no-such-task'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no scheduled task has the id "no-such-task" (see oi schedule list)');
    const s = await task({});
    await store.remove(s.id);
    await store.add({ ...s, workspace: store.dataDir });
    const refused = await runOi(['schedule', 'run', s.id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is the app's own data");
    expect((await store.runs(s.id))[0]).toMatchObject({ result: 'did not start (oi exited 1; its log says why)', conversationId: null });
  });
});
