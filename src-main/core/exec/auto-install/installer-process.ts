import { ModelText } from '../output/model-text';
import { killTree } from '../process/process-tree';
import { PtyProcess } from '../process/pty-process';
import { errorMessage } from '@contract';

// Runs an installer (pip, npm, venv) under a terminal, so it shows the progress bars it shows a user,
// streaming its output to the cell as it comes. Stopping the cell stops the installer.

export interface InstallerRun {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  onTerminal?: (text: string) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface InstallerResult {
  ok: boolean;
  exitCode: number | null;
  /** What it printed as plain text (see model-text.ts); the end kept when it is long. */
  text: string;
  /** Why it stopped early: 'interrupted' or 'timeout'. */
  stopped: 'interrupted' | 'timeout' | null;
}

const KEEP_CHARS = 256 * 1024;

export async function runInstaller(run: InstallerRun): Promise<InstallerResult> {
  let text = '';
  // Read as a person reads the screen: colours gone, only a progress bar's last state kept.
  const reader = new ModelText({
    push: (piece) => {
      text += piece;
      if (text.length > 2 * KEEP_CHARS) text = text.slice(-KEEP_CHARS);
    },
  });
  let stopped: InstallerResult['stopped'] = null;
  let proc: PtyProcess;
  try {
    proc = new PtyProcess({ file: run.file, args: run.args, cwd: run.cwd, env: run.env });
  } catch (err) {
    return { ok: false, exitCode: null, text: `could not start ${run.file}: ${errorMessage(err)}`, stopped: null };
  }
  proc.onData((chunk) => {
    reader.push(chunk);
    try {
      run.onTerminal?.(chunk);
    } catch {
      // The UI's trouble is not the install's.
    }
  });
  const stop = (why: 'interrupted' | 'timeout'): void => {
    stopped ??= why;
    void killTree(proc.pid);
  };
  const onAbort = (): void => stop('interrupted');
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) onAbort();
  const timer = setTimeout(() => stop('timeout'), run.timeoutMs ?? 15 * 60_000);
  const exit = await proc.waitForExit();
  clearTimeout(timer);
  run.signal?.removeEventListener('abort', onAbort);
  reader.end();
  return { ok: exit.exitCode === 0 && !stopped, exitCode: exit.exitCode, text, stopped };
}

/** The last lines of an installer's output, for a message. */
export function lastLines(text: string, count = 12): string {
  return text
    .trimEnd()
    .split('\n')
    .filter((l) => l.trim())
    .slice(-count)
    .join('\n');
}
