import path from 'node:path';
import { afterAll, afterEach, beforeAll, onTestFinished } from 'vitest';
import { tempDir } from './cli-process';
import { connectStdio, mcpEnv, type McpData, type StdioServer } from './oi-mcp';

// One `oi mcp` over stdio for the tests of a file that need the same flags and environment, not a
// process of their own: each start costs about 1.4 CPU-seconds before its first answer (issue 36).
// It is started before the tests (one started inside a test ends with it: test-children.ts), with a
// data folder of its own (mcpEnv's settings). After a failed test it is closed, and the tests after
// start one each (ended with the test), so nothing a failed test left half-done reaches the next.

export interface SharedStdio {
  data: McpData;
  server: StdioServer;
}

interface Running extends SharedStdio {
  remove(): void;
}

/**
 * For a test file: the `oi mcp <args(ws)>` its tests share, started before them in a fresh data folder
 * (`prepare` plants what it needs first), ended after them.
 */
export function useSharedOiMcpStdio(
  prefix: string,
  args: (ws: string) => string[],
  options: { env?: Record<string, string>; prepare?: (data: McpData) => void } = {},
): () => Promise<SharedStdio> {
  let running: Running | null = null;

  const start = async (): Promise<Running> => {
    const folder = tempDir(prefix);
    const data: McpData = { dir: folder.dir, ws: path.join(folder.dir, 'ws'), env: mcpEnv(folder.dir, options.env ?? {}) };
    try {
      options.prepare?.(data);
      return { data, server: await connectStdio(args(data.ws), data.env, data.ws), remove: folder.remove };
    } catch (error) {
      folder.remove();
      throw error;
    }
  };
  const end = async (was: Running | null) => {
    if (!was) return;
    await was.server.close().catch(() => undefined);
    was.remove();
  };
  const stop = async () => {
    const was = running;
    running = null;
    await end(was);
  };

  beforeAll(async () => {
    running = await start();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await stop();
  });
  afterAll(stop);

  return async () => {
    if (running) return running;
    const own = await start();
    onTestFinished(() => end(own));
    return own;
  };
}
