import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_EVENTS, type CellItem, type HooksConfig, type NoticeItem, type SettingsPatch } from '@contract';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';

// A workspace is a stranger's until the person trusts its folder (a cloned repository): its
// `.agents/hooks.json` must run nothing before that. And since sandboxed code can rewrite that file
// (and any script it names) at any time, a trusted workspace's hooks run inside the sandbox when the
// sandbox is on — nothing sandboxed code can write is executed by the app outside it. Real app core
// (browser mode's handlers), the scripted model, real shells and real bubblewrap. Each attack has its
// twin: the same hooks run once trusted (so their silence before means something), and the same
// command as the person's own hook does write outside the workspace (so the sandbox is what stopped it).

const ctx = { transport: 'websocket' } as const;

describe('a workspace’s hooks', () => {
  let aut: AppUnderTest;
  let root: string;
  let workspace: string;
  let outside: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-ws-hooks-')));
    workspace = path.join(root, 'cloned-repo');
    outside = path.join(root, 'outside');
    mkdirSync(path.join(workspace, '.agents'), { recursive: true });
    mkdirSync(outside);
  });
  afterEach(async () => {
    await aut?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A hook at every event that leaves a file named after the event in `folder`. */
  function everyEvent(folder: string): HooksConfig {
    return Object.fromEntries(HOOK_EVENTS.map((event) => [event, [{ command: `touch '${folder}/ran-${event}'`, timeoutSeconds: 60 }]]));
  }

  async function turn(settings: SettingsPatch, trust: boolean): Promise<{ cell: CellItem | undefined; notices: string[] }> {
    aut = await startAppUnderTest({ autoRun: true, ...settings });
    const conv = await aut.app.handlers['conversation.create']({ workspace }, ctx);
    if (trust) await aut.app.handlers['instructions.trust']({ conversationId: conv.id }, ctx);
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'shell', code: 'echo the cell ran' } }] },
      { kind: 'text', text: 'Done.' },
    );
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text: 'go' }, ctx);
    await aut.app.context.agent.idle(conv.id);
    const saved = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx);
    return {
      cell: saved.items.find((i): i is CellItem => i.kind === 'cell'),
      notices: saved.items.filter((i): i is NoticeItem => i.kind === 'notice').map((n) => n.text),
    };
  }

  // The sandbox as the person turned it off (chosen), and on.
  const OFF = SANDBOX_CHOSEN_OFF;
  const ON = { sandbox: { enabled: true, chosen: true } } satisfies SettingsPatch;

  it('run nothing, at any event, before the person trusts the folder; the person is told they are there', async () => {
    writeFileSync(path.join(workspace, '.agents', 'hooks.json'), JSON.stringify({ hooks: everyEvent(outside) }));
    const { cell, notices } = await turn(OFF, false);
    expect(cell?.status).toBe('done');
    expect(readdirSync(outside)).toEqual([]);
    expect(notices.join('\n')).toContain(
      `This workspace has hooks (${path.join(workspace, '.agents', 'hooks.json')}) that do not run until you trust`,
    );
  });

  it('twin: once the person trusts the folder (Trust this folder), the same hooks run at every event', async () => {
    writeFileSync(path.join(workspace, '.agents', 'hooks.json'), JSON.stringify({ hooks: everyEvent(outside) }));
    await turn(OFF, true);
    // needsPerson has nothing to say with auto-run on; every other event ran its hook.
    await expect
      .poll(() => readdirSync(outside).sort())
      .toEqual(
        HOOK_EVENTS.filter((e) => e !== 'needsPerson')
          .map((e) => `ran-${e}`)
          .sort(),
      );
  });

  it('run inside the sandbox once trusted, with the sandbox on: a hook cannot write outside the workspace', async () => {
    const hook = { command: `touch '${workspace}/inside-marker'; touch '${outside}/escaped-marker'`, timeoutSeconds: 60 };
    writeFileSync(path.join(workspace, '.agents', 'hooks.json'), JSON.stringify({ hooks: { beforeCell: [hook] } }));
    const { cell } = await turn(ON, true);
    // It ran (its write inside the workspace is there), and its write outside did not happen.
    expect(existsSync(path.join(workspace, 'inside-marker'))).toBe(true);
    expect(existsSync(path.join(outside, 'escaped-marker'))).toBe(false);
    // A hook whose command failed inside the sandbox (touch outside refused) refused the cell: fail closed.
    expect(cell?.status).toBe('skipped');
  });

  it('twin: the same command as the person’s own hook (data folder) runs as the person and writes outside', async () => {
    const hook = { command: `touch '${workspace}/inside-marker'; touch '${outside}/escaped-marker'`, timeoutSeconds: 60 };
    const { cell } = await turn({ ...ON, hooks: { beforeCell: [hook] } }, true);
    expect(existsSync(path.join(workspace, 'inside-marker'))).toBe(true);
    expect(existsSync(path.join(outside, 'escaped-marker'))).toBe(true);
    expect(cell?.status).toBe('done');
  });
});
