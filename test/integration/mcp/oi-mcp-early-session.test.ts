import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ServeSession } from '../../../src-main/core/mcp-server/serve-session';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { useCoreApps } from '../../support/core-apps';
import { SYSTEM_PYTHON } from '../../support/oi-mcp';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { served } from '../../support/served-session';

// `oi mcp` starts its stdio client's Python session ahead of the first `execute` (ServeSession.prepare,
// docs/mcp.md#start-up), on the app's real engine. What must hold: the first run uses that session (not
// a second one); nothing starts early when a conversationStart or beforeCell hook is set up; and a
// client that leaves while the session is still starting leaves no Python behind. The sessions are
// found as processes: oi_runner.py running in the test's own workspace.

const core = useCoreApps('oi-mcp-early-');

/** The pids of Python runners whose folder is `workspace`. */
function runnersIn(workspace: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('oi_runner.py')) continue;
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === workspace) found.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

const servedWith = (hooks: Record<string, unknown> = {}) =>
  served(core, new MemorySettingsStore({ exec: { timeoutMs: 60_000, pythonPath: SYSTEM_PYTHON }, hooks, ...SANDBOX_CHOSEN_OFF }));

const pidOf = async (session: ServeSession): Promise<number> =>
  Number((await session.execute('python', 'import os; print(os.getpid())')).forModel.trim());

describe('oi mcp starts the client’s Python session early', () => {
  it('starts it before the first run, says when its process is started, and the first run uses it', { timeout: 120_000 }, async () => {
    const { session, workspace } = servedWith();
    const client = session();
    // `oi mcp` loads the MCP SDK once the process is started: told before the session is ready.
    const order: string[] = [];
    await client.prepare('python', () => order.push('spawned')).then(() => order.push('ready'));
    expect(order).toEqual(['spawned', 'ready']);
    const early = runnersIn(workspace);
    expect(early).toHaveLength(1);
    expect(await pidOf(client)).toBe(early[0]);
    expect(runnersIn(workspace)).toEqual(early);
  });

  it('starts nothing early when a conversationStart or beforeCell hook is set up', { timeout: 120_000 }, async () => {
    for (const event of ['conversationStart', 'beforeCell']) {
      const { session, workspace } = servedWith({ [event]: [{ command: 'true' }] });
      const client = session();
      let spawned = false;
      await client.prepare('python', () => (spawned = true));
      expect(runnersIn(workspace), event).toEqual([]);
      expect(spawned, event).toBe(false);
      // The first run starts it, after the hook.
      expect(await pidOf(client)).toBeGreaterThan(0);
    }
  });

  it('leaves no Python behind when the client leaves while its session starts', { timeout: 120_000 }, async () => {
    const { app, session, workspace } = servedWith();
    const leaving = session();
    void leaving.prepare('python');
    await leaving.close();
    expect(runnersIn(workspace)).toEqual([]);

    // The twin: the engine's conversation closed without waiting for the start leaves its Python running.
    const hasty = session();
    const starting = hasty.prepare('python');
    await app.context.exec.closeConversation(hasty.id);
    await starting;
    expect(runnersIn(workspace)).toHaveLength(1);
    await hasty.close();
    expect(runnersIn(workspace)).toEqual([]);
  });
});
