import { closeSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { errorMessage } from '@contract';
import { defaultAppDataDir } from '../../core/app-data-dir';
import {
  BackgroundRunError,
  BackgroundRuns,
  processAlive,
  settled,
  statusForExit,
  type BackgroundRun,
} from '../../core/background/background-runs';
import { startOwnOiDetached } from '../../core/programs/app-programs';
import { parseCliArgs, UsageError } from '../cli-args';
import type { CliEnd } from '../cli-run';
import { readStdinText } from '../stdin-text';

// `oi -m … --background`, `oi ps`, `oi attach <id>`, `oi stop <id>` (docs/cli.md#background-runs). A
// background run is a one-shot `oi -m` in a session of its own (so closing the terminal does not end
// it), its output going to a log in the data folder; nobody is at its terminal, so code runs only with
// -y, and a program asking for input gets end-of-file, as with any `oi -m`.

/** How often `oi attach` and `oi stop` look again: following a file, not timing anything. */
const POLL_MS = 150;
/** After Ctrl-C's signal, how long the run gets to stop its code and close before it is killed. */
const STOP_GRACE_MS = 20_000;

const end = (code: number): CliEnd => ({ code, exit: () => process.exit(code) });
const say = (line: string) => process.stdout.write(`${line}\n`);
const runs = () => new BackgroundRuns(defaultAppDataDir());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether these words ask for a background run, and are not a message ("oi ps" alone is the command). */
export const wantsBackground = (argv: string[]) => argv.includes('--background');

export async function startBackground(argv: string[], env: NodeJS.ProcessEnv): Promise<CliEnd> {
  try {
    const rest = argv.filter((a) => a !== '--background');
    const opts = parseCliArgs(rest);
    if (opts.list || opts.help || opts.version)
      throw new UsageError('--background runs a message; it does not go with --list, --help or --version');
    let message = opts.message ?? opts.prompt;
    if (message === null) throw new UsageError('--background needs a message: oi -m "…" --background');
    // The detached oi has no standard input: `-m -` is read here and passed on as the message.
    if (opts.message === '-') {
      message = await readStdinText(process.stdin);
      if (!message.trim()) throw new UsageError('-m - reads the message from standard input, which was empty');
    }
    const args = opts.message !== null ? replaceMessage(rest, message) : rest;
    const store = runs();
    const { id, log } = await store.prepare();
    const fd = openSync(log, 'a', 0o600);
    let pid: number;
    try {
      // process.execArgv carries tsx's loader when oi runs from source; argv[1] is oi itself.
      pid = await startOwnOiDetached(
        {
          program: process.execPath,
          args: [...process.execArgv, process.argv[1] ?? '', ...args],
          cwd: process.cwd(),
          env: { ...env, OI_BACKGROUND_RUN: id },
        },
        fd,
      );
    } finally {
      closeSync(fd);
    }
    await store.create(id, message, process.cwd(), pid);
    say(id);
    process.stderr.write(`oi: running in the background; follow it with oi attach ${id}, stop it with oi stop ${id} (oi ps lists runs)\n`);
    return end(0);
  } catch (err) {
    process.stderr.write(`oi: ${errorMessage(err)}\n`);
    return end(err instanceof UsageError ? 2 : 1);
  }
}

function replaceMessage(argv: string[], message: string): string[] {
  const out = [...argv];
  const at = out.findIndex((a) => a === '-m' || a === '--message');
  if (at >= 0) out[at + 1] = message;
  else {
    const joined = out.findIndex((a) => a.startsWith('--message=') || (a.startsWith('-m') && a.length > 2));
    if (joined >= 0) out.splice(joined, 1, '-m', message);
  }
  return out;
}

function describe(run: BackgroundRun): string {
  const when = new Date(run.startedAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
  const state = run.status === 'running' ? 'running' : `${run.status}${run.exitCode !== null ? ` (exit ${run.exitCode})` : ''}`;
  const first = run.message.split('\n')[0] ?? '';
  return `${run.id}  ${state.padEnd(18)} ${when}  ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
}

async function ps(json: boolean): Promise<number> {
  const all = await runs().list();
  if (json) return (say(JSON.stringify({ runs: all })), 0);
  if (all.length === 0) say('No background runs. Start one with oi -m "…" --background.');
  for (const run of all) say(describe(run));
  return 0;
}

/** Prints the run's output from the start, then follows it to the end; exits with the run's code. */
async function attach(id: string): Promise<number> {
  const store = runs();
  let run = await store.find(id);
  const file = await open(store.logFile(run.id), 'r');
  try {
    let offset = 0;
    const drain = async () => {
      for (;;) {
        const { bytesRead, buffer } = await file.read({ buffer: Buffer.alloc(64 * 1024), position: offset });
        if (bytesRead === 0) return;
        offset += bytesRead;
        process.stdout.write(buffer.subarray(0, bytesRead));
      }
    };
    for (;;) {
      await drain();
      run = settled(await store.read(run.id));
      if (run.status !== 'running') break;
      await sleep(POLL_MS);
    }
    await drain();
  } finally {
    await file.close();
  }
  process.stderr.write(`oi: background run ${run.id} ${run.status}${run.reason ? `: ${run.reason}` : ''}\n`);
  return run.exitCode ?? 1;
}

/** Stops a run as Ctrl-C would (its code stopped, the conversation saved), killing it if it does not end. */
async function stop(id: string): Promise<number> {
  const store = runs();
  const run = await store.find(id);
  if (run.status !== 'running' || run.pid === null) {
    say(`${run.id} is not running (${run.status}).`);
    return 0;
  }
  const pid = run.pid;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (processAlive(pid) && Date.now() < deadline) await sleep(POLL_MS);
  // Its session of its own is its process group: everything it started goes with it.
  if (processAlive(pid)) process.kill(-pid, 'SIGKILL');
  while (processAlive(pid)) await sleep(POLL_MS);
  const after = await store.read(run.id);
  if (after.status === 'running')
    await store.update(run.id, { status: 'stopped', endedAt: new Date().toISOString(), reason: 'stopped with oi stop' });
  say(`Stopped ${run.id}.`);
  return 0;
}

/** `oi ps`, `oi attach <id>`, `oi stop <id>`. */
export async function runBackgroundCommand(argv: string[]): Promise<CliEnd> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'ps') return end(await ps(rest.includes('--json')));
    const id = rest[0];
    if (!id || rest.length > 1) throw new UsageError(`oi ${sub} <id>: give one background run id (see oi ps)`);
    return end(sub === 'attach' ? await attach(id) : await stop(id));
  } catch (err) {
    process.stderr.write(`oi ${sub}: ${errorMessage(err)}\n`);
    return end(err instanceof UsageError || err instanceof BackgroundRunError ? 2 : 1);
  }
}

/** The detached oi's side: its end written to its record, however the turn ended. */
export async function recordBackgroundEnd(
  id: string,
  code: number,
  seen: { reason: string; conversationId: string } | null,
): Promise<void> {
  await runs()
    .update(id, {
      status: statusForExit(code),
      exitCode: code,
      endedAt: new Date().toISOString(),
      reason: seen?.reason ?? (code === 2 ? 'did not start (see the output)' : null),
      conversationId: seen?.conversationId ?? null,
    })
    .catch((err: unknown) => process.stderr.write(`oi: the background run could not be recorded: ${errorMessage(err)}\n`));
}
