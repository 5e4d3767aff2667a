import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEvent, Conversation } from '@contract';
import { ENDPOINT_FILE } from '../../../src-main/core/mcp-approval/endpoint-file';
import type { AppUnderTest } from '../../support/app-under-test';
import { answer, startDesktopApp, waitForQuestion } from '../../support/desktop-approvals';
import { textOf, useOiMcp, type McpData } from '../../support/oi-mcp';

// `oi mcp` without --auto-run asks the desktop app before a client's code runs or a file is written:
// a real `oi mcp` process driven by the SDK's Client over stdio, and the real app (browser mode's
// composition, its approval endpoint open) on the same data folder, answering as the page's buttons do.

const oi = useOiMcp();
let aut: AppUnderTest | null = null;
// Registered after useOiMcp's hook, so it runs first: the app quits before its data folder goes.
afterEach(async () => {
  await aut?.close({ keepData: true });
  aut = null;
});

async function setup(args: string[] = []): Promise<{ client: Client; ws: string; dataDir: string }> {
  const data = oi.data('oi-mcp-ask-');
  aut = await startDesktopApp(data.dir);
  const { client } = await oi.stdio(['--workspace', data.ws, ...args], data.env, data.ws);
  return { client, ws: data.ws, dataDir: data.dir };
}

function setClients(data: McpData, clients: Record<string, string>): void {
  const file = path.join(data.dir, 'settings.json');
  writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), mcpClients: clients }));
}

/** A tool call given time for the person to answer and the code to run on a loaded machine. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 150_000 })) as CallToolResult;
}

function eventsOf(app: AppUnderTest): AnyEvent[] {
  const seen: AnyEvent[] = [];
  app.app.events.subscribe((e) => {
    if (e.name.startsWith('mcp-approval.')) seen.push(e);
  });
  return seen;
}

function savedSettings(dataDir: string): { mcpClients?: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { mcpClients?: Record<string, string> };
}

describe('oi mcp asking the desktop app', () => {
  it(
    'shows the client, language and code; Allow once runs it, Deny refuses it with the reason; a write shows its path and content',
    { timeout: 240_000 },
    async () => {
      const { client, ws, dataDir } = await setup();
      const app = aut!;
      const running = call(client, 'execute', { language: 'python', code: 'x = 41\nprint(x + 1)' });
      const asked = await waitForQuestion(app);
      expect(asked).toMatchObject({
        client: 'oi-test-client',
        clientVersion: '1.0.0',
        kind: 'execute',
        language: 'python',
        code: 'x = 41\nprint(x + 1)',
        workspace: realpathSync(ws),
      });
      expect(await answer(app, asked.id, 'once')).toBe(true);
      const ran = await running;
      expect(ran.isError, textOf(ran)).toBeFalsy();
      expect(textOf(ran)).toBe('42');
      expect(app.app.context.mcpApprovals.pending()).toEqual([]);

      const declined = call(client, 'execute', { language: 'shell', code: 'touch denied.txt' });
      expect(await answer(app, (await waitForQuestion(app)).id, 'deny')).toBe(true);
      const refused = await declined;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('oi mcp did not run code: the person at the desktop app declined.');
      expect(existsSync(path.join(ws, 'denied.txt'))).toBe(false);

      const file = { path: 'notes/a.txt', content: 'hello from the client' };
      const writing = call(client, 'write_file', file);
      const write = await waitForQuestion(app);
      expect(write).toMatchObject({ kind: 'write_file', ...file, contentOmitted: 0, code: null });
      await answer(app, write.id, 'once');
      expect((await writing).isError).toBeFalsy();
      expect(readFileSync(path.join(ws, 'notes', 'a.txt'), 'utf8')).toBe('hello from the client');

      // The run the person allowed is recorded as theirs, in the client's conversation.
      const files = readdirSync(path.join(dataDir, 'conversations')).filter((f) => f.endsWith('.json'));
      const conversation = JSON.parse(readFileSync(path.join(dataDir, 'conversations', files[0]!), 'utf8')) as Conversation;
      expect(conversation.title).toBe('MCP: oi-test-client');
      expect(conversation.items.map((i) => i.kind === 'cell' && [i.code, i.approval])).toEqual([['x = 41\nprint(x + 1)', 'user']]);
    },
  );

  it(
    '"Always allow" is saved for the client: later calls run without a question, also once the app has quit; "refuse" in settings refuses',
    { timeout: 240_000 },
    async () => {
      const { client, dataDir } = await setup();
      const app = aut!;
      const first = call(client, 'execute', { language: 'shell', code: 'echo first' });
      await answer(app, (await waitForQuestion(app)).id, 'always');
      expect(textOf(await first)).toBe('first');
      expect(savedSettings(dataDir).mcpClients).toEqual({ 'oi-test-client': 'allow' });

      const events = eventsOf(app);
      const second = await call(client, 'execute', { language: 'shell', code: 'echo second' });
      expect(textOf(second)).toBe('second');
      expect(events).toEqual([]);

      // The app quits (its endpoint file goes with it): the saved choice still holds.
      await app.close({ keepData: true });
      aut = null;
      expect(existsSync(path.join(dataDir, ENDPOINT_FILE))).toBe(false);
      expect(textOf(await call(client, 'execute', { language: 'shell', code: 'echo third' }))).toBe('third');

      // Set to refuse (as Settings → Clients of oi mcp saves it): refused, without asking anyone.
      setClients({ dir: dataDir, ws: '', env: {} }, { 'oi-test-client': 'refuse' });
      const refused = await call(client, 'execute', { language: 'shell', code: 'echo fourth' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^oi mcp does not run code for the client "oi-test-client": the desktop app's settings refuse it/);
    },
  );

  it('refuses a client set to refuse even with --auto-run', { timeout: 120_000 }, async () => {
    const data = oi.data('oi-mcp-ask-');
    const { env, ws } = data;
    setClients(data, { 'oi-test-client': 'refuse' });
    let stdio = await oi.stdio(['--workspace', ws, '--auto-run'], env, ws);
    const refused = await call(stdio.client, 'write_file', { path: 'x.txt', content: 'x' });
    expect(textOf(refused)).toMatch(/does not write files for the client "oi-test-client": the desktop app's settings refuse it/);
    expect(existsSync(path.join(ws, 'x.txt'))).toBe(false);
    // The twin: another client name, same server settings, is allowed by --auto-run.
    await stdio.close();
    stdio = await oi.stdio(['--workspace', ws, '--auto-run'], env, ws, 'another-client');
    expect((await call(stdio.client, 'write_file', { path: 'x.txt', content: 'x' })).isError).toBeFalsy();
    expect(existsSync(path.join(ws, 'x.txt'))).toBe(true);
  });

  it(
    'refuses when no app runs, and when nobody answers in time (the question is then withdrawn from the page)',
    { timeout: 180_000 },
    async () => {
      const data = oi.data('oi-mcp-ask-');
      const { env, ws } = data;
      const stdio = await oi.stdio(['--workspace', ws, '--ask-timeout', '2'], env, ws);
      const alone = await call(stdio.client, 'execute', { language: 'shell', code: 'touch ran.txt' });
      expect(alone.isError).toBe(true);
      expect(textOf(alone)).toMatch(
        /^oi mcp did not run code: it asked the desktop app, but the desktop app is not running \(it has no approval endpoint open\)\. Answer in the desktop app/,
      );

      aut = await startDesktopApp(data.dir);
      const events = eventsOf(aut);
      const unanswered = await call(stdio.client, 'execute', { language: 'shell', code: 'touch ran.txt' });
      expect(textOf(unanswered)).toMatch(
        /^oi mcp did not run code: it asked the desktop app, but nobody answered in the desktop app within 2 s\./,
      );
      expect(existsSync(path.join(ws, 'ran.txt'))).toBe(false);
      await vi.waitFor(() => expect(events.map((e) => e.name)).toEqual(['mcp-approval.asked', 'mcp-approval.closed']), {
        timeout: 15_000,
        interval: 50,
      });
      expect(events[1]?.payload).toMatchObject({ how: 'withdrawn' });
      expect(aut.app.context.mcpApprovals.pending()).toEqual([]);
    },
  );
});
