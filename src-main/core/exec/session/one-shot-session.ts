import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { writeNewFileBeneath } from '../../fs/no-follow-open';
import { basename, join } from 'node:path';
import type { LanguageDefinition, Runtime } from '../languages/language';
import type { LimitController } from '../process/limits';
import { signalName } from '../output/messages';
import { killTree } from '../process/process-tree';
import { PtyProcess } from '../process/pty-process';
import type { Session, SessionOutcome, SessionRun } from './session-types';
import type { SessionTerminal } from '../input/terminal-watch';

// Languages without a kept-alive session (Java, AppleScript, PowerShell; R and Ruby when their
// runner cannot start): each run writes the code to a file in a private folder and starts the
// runtime on it under a pty. The process's exit is the end of the run, so no fence is needed. A
// runtime that leaves its own temp folder behind when killed (R) gets TMPDIR inside that private
// folder, which goes when the run ends, as a runner session's does with the session.

export interface OneShotOptions {
  language: LanguageDefinition;
  runtime: Runtime;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  limits: LimitController;
}

export class OneShotSession implements Session {
  readonly alive = true;
  readonly diedWhileIdle = null;
  private current: PtyProcess | null = null;

  constructor(private readonly options: OneShotOptions) {}

  async run(run: SessionRun): Promise<SessionOutcome> {
    const spec = this.options.language.oneShot;
    if (!spec) throw new Error(`${this.options.language.label} has no one-shot command`);
    const dir = await mkdtemp(join(this.options.tmpRoot, `oi-${this.options.language.name}-`));
    try {
      const file = join(dir, spec.fileName);
      await writeNewFileBeneath(this.options.tmpRoot, [basename(dir), spec.fileName], run.code, { fileMode: 0o600 });
      const env = this.options.language.privateTmpdir ? { ...this.options.env, TMPDIR: await privateTmp(dir) } : this.options.env;
      const command = this.options.limits.wrapSpawn(this.options.runtime.command, spec.args(file), run.settings);
      const proc = new PtyProcess({ file: command.file, args: command.args, cwd: this.options.workspace, env });
      this.current = proc;
      proc.onData((text) => run.output.terminal(text));
      const problem = await this.options.limits.beforeRun(proc.pid, run.settings);
      if (problem) run.output.terminal(`[${problem}]\r\n`);
      const exit = await proc.waitForExit();
      if (exit.signal) {
        return { status: 'failed', exitCode: null, cwd: null, message: `The program was killed by ${signalName(exit.signal)}.` };
      }
      return { status: exit.exitCode === 0 ? 'done' : 'failed', exitCode: exit.exitCode, cwd: null, message: null };
    } finally {
      this.current = null;
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  interrupt(): void {
    this.current?.write('\x03');
  }

  async killChildren(): Promise<void> {
    if (this.current) await killTree(this.current.pid);
  }

  async kill(): Promise<void> {
    await this.killChildren();
  }

  setPaused(paused: boolean): void {
    if (paused) this.current?.pause('output-cap');
    else this.current?.resume('output-cap');
  }

  terminal(): SessionTerminal | null {
    const proc = this.current;
    return proc ? { pid: proc.pid, ttyPath: proc.ttyPath, write: (data) => proc.write(data) } : null;
  }

  async dispose(): Promise<void> {
    await this.kill();
    await this.options.limits.dispose?.();
  }
}

async function privateTmp(runDir: string): Promise<string> {
  const tmp = join(runDir, 'tmp');
  await mkdir(tmp, { mode: 0o700 });
  return tmp;
}
