import { killGroup, startPersonCommand } from '../programs/app-programs';

// One hook run: the command started through the app's launcher (app-programs.ts) in a process group
// of its own, the event's JSON on its stdin, its stdout and stderr kept up to a bound, and a time
// limit after which the whole group is killed. Whatever the hook does — exits, crashes, hangs, forks
// a child that keeps the pipes open, never reads its stdin — this settles, within the limit.

/** Bytes of stdout and of stderr kept; the rest is dropped (a hook answers in a line or two). */
export const HOOK_OUTPUT_BYTES = 64 * 1024;

export type HookRun =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  | { kind: 'killed'; signal: string; stderr: string }
  | { kind: 'timeout'; stderr: string }
  | { kind: 'not-started'; error: string };

export interface HookProcessOptions {
  /** What the launcher starts: `sh -c <command>`, maybe wrapped in the sandbox. */
  line: { file: string; args: string[] };
  cwd: string;
  env: Record<string, string>;
  input: string;
  timeoutMs: number;
}

export function runHookProcess(options: HookProcessOptions): Promise<HookRun> {
  return new Promise((resolve) => {
    let child;
    try {
      child = startPersonCommand(options.line, { cwd: options.cwd, env: options.env });
    } catch (err) {
      resolve({ kind: 'not-started', error: err instanceof Error ? err.message : String(err) });
      return;
    }
    const stdout = new Bounded();
    const stderr = new Bounded();
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const settle = (run: HookRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child);
      resolve(run);
    };
    const fromExit = (): HookRun =>
      exit?.code !== null && exit?.code !== undefined
        ? { kind: 'exited', code: exit.code, stdout: stdout.text(), stderr: stderr.text() }
        : { kind: 'killed', signal: exit?.signal ?? 'unknown signal', stderr: stderr.text() };
    // After the limit: a hook that answered (exited) but left a child holding its pipes is taken at its
    // answer; one that did not is a time-out. Either way its group is killed.
    const timer = setTimeout(() => settle(exit ? fromExit() : { kind: 'timeout', stderr: stderr.text() }), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A hook that does not read its input closes the pipe early: not an error of the hook's.
    child.stdin.on('error', () => undefined);
    child.once('error', (err) => settle({ kind: 'not-started', error: err.message }));
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Leftover children of the hook go with it: a hook's work ends when it answers.
      killGroup(child);
    });
    child.once('close', () => settle(fromExit()));
    child.stdin.end(options.input);
  });
}

class Bounded {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    if (this.size >= HOOK_OUTPUT_BYTES) return;
    const part = chunk.subarray(0, HOOK_OUTPUT_BYTES - this.size);
    this.chunks.push(part);
    this.size += part.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
