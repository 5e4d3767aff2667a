import { errorMessage } from '@contract/error-message';

/**
 * How long a process that is about to exit (`oi -m`, `oi mcp`, browser mode) waits for the app to
 * close before it exits anyway. Closing ends the language sessions and MCP servers and leaves remote
 * kernels — seconds on a loaded machine; a part that never finishes (a remote server that stopped
 * answering, a thread that hangs) must not keep a finished process alive for good.
 */
export const DISPOSE_LIMIT_MS = 30_000;

/**
 * Disposes the app, but resolves after `limitMs` at the latest, saying what was given up. The timer
 * is ref'd on purpose: a dispose waiting on nothing the event loop holds would otherwise let the
 * process drain and end with whatever exit code was set meanwhile, before the caller chose its own.
 */
export async function disposeBeforeExit(
  app: { dispose(): Promise<void> },
  say: (line: string) => void,
  limitMs: number = DISPOSE_LIMIT_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limitMs)));
  try {
    const ended = await Promise.race([
      app.dispose().then(
        () => 'done' as const,
        (err: unknown) => (say(`closing failed: ${errorMessage(err)}`), 'done' as const),
      ),
      late,
    ]);
    if (ended === 'late') say(`closing took longer than ${limitMs / 1000} s; exiting without waiting for it`);
  } finally {
    clearTimeout(timer);
  }
}
