import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundRun } from '../../../src-main/core/background/background-runs';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, OI, runOi, tempDir } from '../../support/cli-process';
import { endWithTest } from '../../support/test-children';

// `oi -m … --background`, `oi ps`, `oi attach`, `oi stop` (docs/cli.md#background-runs): real oi
// processes (the built one when fresh) against the scripted model. The detached oi outlives the oi that
// started it; the test waits on files its code writes, never on time.

let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let work: string;

beforeAll(async () => {
  llm = await startScriptedLlm();
  data = tempDir('oi-background-');
  work = path.join(data.dir, 'here');
  env = cliEnv(data.dir);
});
afterAll(async () => {
  await llm.close();
  data.remove();
});

const model = () => ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '-y', '--no-sandbox'];
const shell = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

/** Polls for a state the run reaches (the test's timeout names `label`'s wait when it never does). */
async function until<T>(what: () => T | undefined | false | 0 | '', label: string): Promise<T> {
  for (let value = what(); ; value = what()) {
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50, label));
  }
}

/** Starts a background run; its detached oi is killed with the test should the test fail first. */
async function background(message: string): Promise<string> {
  const started = await runOi(['-m', message, ...model(), '--background'], env);
  expect(started.stderr).toContain('running in the background; follow it with oi attach');
  expect(started.code).toBe(0);
  const id = started.stdout.trim();
  expect(id).toMatch(/^[0-9a-f]{8}$/);
  const run = await ps(id);
  if (run?.pid) endWithTest({ pid: run.pid, kill: () => undefined }, { group: true, exited: () => undefined });
  return id;
}

async function ps(id: string): Promise<BackgroundRun | undefined> {
  const out = await runOi(['ps', '--json'], env);
  return (JSON.parse(out.stdout) as { runs: BackgroundRun[] }).runs.find((r) => r.id === id);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('background runs', () => {
  it('detaches and prints an id; attach follows the output to the end; ps lists it running, then done', async () => {
    llm.enqueue(shell('c1', 'echo "started var:${OI_BACKGROUND_RUN:-unset}"; while [ ! -e go ]; do sleep 0.1; done; echo "fin"ished'), {
      kind: 'text',
      text: 'All done here.',
    });
    const id = await background('wait for go, then finish');
    // The oi that printed the id has exited: the run goes on without it.
    expect((await ps(id))?.status).toBe('running');
    const listed = await runOi(['ps'], env);
    expect(listed.stdout).toMatch(new RegExp(`^${id}  running {12}`, 'm'));

    const attach = spawn(process.execPath, [...OI, 'attach', id.slice(0, 4)], { cwd: work, env, detached: true });
    endWithTest(attach, { group: true });
    let seen = '';
    attach.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
    const code = new Promise<number>((resolve) => attach.on('close', (c) => resolve(c ?? 1)));
    // attach prints what the run wrote so far, then what follows: "finished" only comes after this.
    await until(() => seen.includes('started var:unset'), 'attach never showed the run’s output');
    expect(seen).not.toMatch(/^finished$/m);
    writeFileSync(path.join(work, 'go'), '');
    expect(await code).toBe(0);
    expect(seen).toMatch(/^finished$/m);
    expect(seen).toContain('All done here.');

    const run = await ps(id);
    expect(run).toMatchObject({ status: 'done', exitCode: 0, reason: 'done', message: 'wait for go, then finish' });
    expect(existsSync(path.join(data.dir, 'conversations', `${run?.conversationId ?? 'none'}.json`))).toBe(true);
    expect((await runOi(['ps'], env)).stdout).toMatch(new RegExp(`^${id}  done \\(exit 0\\)`, 'm'));
  });

  it('stop ends a running run and the code it runs; ps shows it stopped', async () => {
    llm.enqueue(shell('c2', 'sleep 300 & echo $! > sleep.pid; wait; touch late.txt'));
    const id = await background('sleep a long time');
    const sleepPid = await until(() => {
      const file = path.join(work, 'sleep.pid');
      return existsSync(file) && Number(readFileSync(file, 'utf8').trim());
    }, 'the cell never started');
    const oiPid = (await ps(id))?.pid ?? 0;
    expect(alive(oiPid)).toBe(true);
    const stopped = await runOi(['stop', id], env);
    expect(stopped.stdout).toBe(`Stopped ${id}.\n`);
    expect(alive(oiPid)).toBe(false);
    expect(alive(sleepPid)).toBe(false);
    expect(existsSync(path.join(work, 'late.txt'))).toBe(false);
    expect(await ps(id)).toMatchObject({ status: 'stopped' });
    // Attaching to a run that ended prints its output and its end at once.
    const attached = await runOi(['attach', id], env);
    expect(attached.stderr).toContain(`oi: background run ${id} stopped`);
    expect((await runOi(['stop', id], env)).stdout).toBe(`${id} is not running (stopped).\n`);
  });

  it('names what is wrong: no message, an id that is none', async () => {
    const none = await runOi(['--background', '-y'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('oi: --background needs a message: oi -m "…" --background\n');
    const bad = await runOi(['attach', 'zz'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('oi attach: "zz" is not a background run id (see oi ps)\n');
    const unknown = await runOi(['stop', 'abcdef12'], env);
    expect(unknown.stderr).toBe('oi stop: no background run has the id "abcdef12" (see oi ps)\n');
  });
});
