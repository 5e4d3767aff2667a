import path from 'node:path';
import { parseArgs } from 'node:util';
import { config as zodConfig } from 'zod/v4/core';
import { describeWhen, errorMessage, RunTrigger, type Schedule, type ScheduleRunRecord } from '@contract';
import { defaultAppDataDir } from '../../core/app-data-dir';
import { currentOiCommand } from '../../core/schedules/oi-command';
import { chooseRunner, installTask, uninstallTask } from '../../core/schedules/os-scheduler';
import { nextDue } from '../../core/schedules/schedule-times';
import { ScheduleError, ScheduleStore } from '../../core/schedules/schedule-store';
import { webhookFile, webhookRecord } from '../../core/schedules/webhook';
import { UsageError } from '../cli-args';
import type { CliEnd } from '../cli-run';
import { ADD_HELP, parseAddArgs } from './schedule-args';
import { runScheduled } from './schedule-run';

// `oi schedule add|list|remove|run` (docs/schedules.md).

export const SCHEDULE_HELP = `oi schedule add …          add a task (oi schedule add --help)
oi schedule list [--json]  the tasks, how each runs, and their last runs
oi schedule remove <id>    remove a task and its OS scheduler entry
oi schedule run <id>       run a task now, as its scheduler would (headless, under its policy)
oi schedule webhook [<id>] how another program starts a task (while the app is open)`;

const end = (code: number): CliEnd => ({ code, exit: () => process.exit(code) });

function describeRun(run: ScheduleRunRecord): string {
  const caught = run.trigger === 'missed' ? ` (missed at ${run.dueAt?.slice(0, 16).replace('T', ' ') ?? '?'}, caught up)` : '';
  return `${run.startedAt.slice(0, 16).replace('T', ' ')} ${run.trigger}${caught}: ${run.result}, $${run.costUsd.toFixed(4)}`;
}

async function list(store: ScheduleStore, json: boolean): Promise<number> {
  const schedules = await store.list();
  const runs = await store.runs();
  if (json) {
    process.stdout.write(`${JSON.stringify({ schedules, runs })}\n`);
    return 0;
  }
  if (schedules.length === 0) process.stdout.write('No scheduled tasks. Add one with oi schedule add (oi schedule add --help).\n');
  for (const s of schedules) {
    const next = nextDue(s.when, new Date());
    const last = runs.filter((r) => r.scheduleId === s.id).at(-1);
    const code = s.policy.code === 'auto-run' ? 'code runs' : 'code refused, report only';
    process.stdout.write(
      `${s.id}  ${s.name}\n  ${describeWhen(s.when)} · ${s.runner}${next ? ` · next ${next.toLocaleString()}` : ''}\n` +
        `  in ${s.workspace} · ${code} · sandbox ${s.policy.sandbox} · $${s.policy.budgetUsd} · ${s.policy.timeLimitMinutes} min\n` +
        (last ? `  last run ${describeRun(last)}\n` : ''),
    );
  }
  return 0;
}

async function add(store: ScheduleStore, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes('--help')) return (process.stdout.write(`${ADD_HELP}\n`), 0);
  const choice = await chooseRunner(env);
  const schedule: Schedule = parseAddArgs(argv, choice.runner);
  await store.add(schedule);
  let files: string[];
  try {
    files = await installTask(schedule, currentOiCommand(env), store.dataDir, env);
  } catch (err) {
    // The task stays nowhere half-made: no OS entry, no store entry.
    await store.remove(schedule.id);
    throw err;
  }
  process.stdout.write(`Added ${schedule.id}: ${describeWhen(schedule.when)}\n`);
  for (const file of files) process.stdout.write(`  wrote ${file}\n`);
  if (schedule.runner === 'in-app')
    process.stdout.write(
      `  It runs while the desktop app or browser mode (npm run serve) is open${choice.note && schedule.when.kind !== 'folder' && schedule.when.kind !== 'manual' ? `: ${choice.note}` : ''}.\n`,
    );
  return 0;
}

async function remove(store: ScheduleStore, id: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  if (!id) throw new UsageError('oi schedule remove <id>: which task? (see oi schedule list)');
  const schedule = await store.get(id);
  await uninstallTask(schedule, store.dataDir, env);
  await store.remove(id);
  process.stdout.write(`Removed ${id}\n`);
  return 0;
}

async function webhook(store: ScheduleStore, id: string | undefined): Promise<number> {
  const { port, token } = await webhookRecord(store.dataDir);
  const where = port ? `http://127.0.0.1:${port}` : 'http://127.0.0.1:<port, chosen when the app first opens it>';
  process.stdout.write(
    `While the desktop app or browser mode is open, this starts a task:\n` +
      `  curl -X POST -H 'Authorization: Bearer ${token}' ${where}/schedules/${id ?? '<id>'}/run\n` +
      `The token is in ${webhookFile(store.dataDir)}; keep it as you would a password.\n`,
  );
  return 0;
}

export async function runSchedule(argv: string[], env: NodeJS.ProcessEnv): Promise<CliEnd> {
  zodConfig({ jitless: true });
  const [sub, ...rest] = argv;
  try {
    if (sub === 'run') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { trigger: { type: 'string' }, due: { type: 'string' }, file: { type: 'string' }, 'data-dir': { type: 'string' } },
      });
      const id = positionals[0];
      if (!id || positionals.length > 1) throw new UsageError('oi schedule run <id>: give one task id (see oi schedule list)');
      const trigger = RunTrigger.safeParse(values.trigger ?? 'manual');
      if (!trigger.success) throw new UsageError(`--trigger must be one of ${RunTrigger.options.join(', ')}`);
      // The OS scheduler names the data folder: its environment is not the person's terminal's.
      if (values['data-dir']) process.env.OI_DATA_DIR = path.resolve(values['data-dir']);
      const store = new ScheduleStore(defaultAppDataDir());
      return await runScheduled(
        store,
        id,
        { trigger: trigger.data, dueAt: values.due ?? null, file: values.file ?? null },
        { ...env, OI_DATA_DIR: store.dataDir },
        (l) => process.stderr.write(`${l}\n`),
      );
    }
    const store = new ScheduleStore(defaultAppDataDir());
    if (sub === 'add') return end(await add(store, rest, env));
    if (sub === 'list') return end(await list(store, rest.includes('--json')));
    if (sub === 'remove') return end(await remove(store, rest[0], env));
    if (sub === 'webhook') return end(await webhook(store, rest[0]));
    if (sub === undefined || sub === '--help') return (process.stdout.write(`${SCHEDULE_HELP}\n`), end(0));
    throw new UsageError(`"${sub}" is not a schedule command:\n${SCHEDULE_HELP}`);
  } catch (err) {
    process.stderr.write(`oi schedule: ${errorMessage(err)}\n`);
    return end(err instanceof UsageError || err instanceof ScheduleError ? 2 : 1);
  }
}
