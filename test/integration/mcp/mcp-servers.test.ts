import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { exportNotebook, importNotebook, serializeNotebook } from '../../../src-main/core/notebook/api';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { everythingStdio, filesystemStdio, startEverythingHttp, type HttpServer } from '../../support/mcp-servers';

// Full agent turns against the scripted model with real MCP servers from npm: over Streamable HTTP,
// over the old SSE transport (reached by the fallback), server-filesystem, a server that crashes,
// tools the user always allows, progress notifications, and MCP calls in the exported notebook.

let h: AgentHarness | null = null;
const http: HttpServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  await Promise.all(http.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function cells(id: string): Promise<CellItem[]> {
  return (await h!.agent.snapshot(id)).items.filter((i): i is CellItem => i.kind === 'cell');
}

describe('MCP servers over HTTP', () => {
  it('calls a tool of a Streamable HTTP server in a turn', async () => {
    const server = await startEverythingHttp('streamableHttp');
    http.push(server);
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: { remote: { url: server.url } } } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__remote__get-sum', arguments: { a: 2, b: 40 } }] },
      { kind: 'text', text: 'done' },
    );
    const id = await h.newConversation();
    await h.send(id, 'add');
    const [cell] = await cells(id);
    expect(cell).toMatchObject({ status: 'done', language: 'mcp:remote/get-sum' });
    expect(cell?.resultForModel).toContain('42');
    expect((await h.mcp.status())[0]).toMatchObject({ state: 'connected', transport: 'http' });
  });

  it('falls back to the old HTTP+SSE transport for a server that predates Streamable HTTP', async () => {
    const server = await startEverythingHttp('sse');
    http.push(server);
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: { old: { url: server.url } } } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__old__echo', arguments: { message: 'over sse' } }] },
      { kind: 'text', text: 'done' },
    );
    const id = await h.newConversation();
    await h.send(id, 'echo');
    const [cell] = await cells(id);
    expect(cell?.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'Echo: over sse\n' }]);
    expect((await h.mcp.status())[0]).toMatchObject({ state: 'connected', transport: 'sse' });
  });

  it('twin: without the fallback (type "http") the same old server cannot be used', async () => {
    const server = await startEverythingHttp('sse');
    http.push(server);
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: { old: { url: server.url, type: 'http' } } } });
    expect(await h.mcp.tools()).toEqual([]);
    const [status] = await h.mcp.status();
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toMatch(/could not start/);
  });
});

describe('server-filesystem', () => {
  it('reads a file of the folder it was given, and refuses one outside', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-mcp-fs-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'the answer is 42\n');
    h = await startAgentHarness({
      settings: { autoRun: true, maxFailedAttempts: 5, mcpServers: { files: filesystemStdio(dir) } },
    });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__files__read_text_file', arguments: { path: path.join(dir, 'notes.txt') } }] },
      { kind: 'tool', calls: [{ id: 'c2', name: 'mcp__files__read_text_file', arguments: { path: '/etc/hostname' } }] },
      { kind: 'text', text: 'done' },
    );
    const id = await h.newConversation();
    await h.send(id, 'read');
    const [inside, outside] = await cells(id);
    expect(inside).toMatchObject({ status: 'done' });
    expect(inside?.resultForModel).toContain('the answer is 42');
    expect(outside).toMatchObject({ status: 'failed' });
    expect(outside?.resultForModel).toMatch(/The MCP tool reported an error|failed/);
    expect(outside?.resultForModel).toMatch(/denied|outside allowed/i);
  });
});

describe('a server that crashes', () => {
  it('is restarted on the next need after its backoff, the model told of the failed call, the app unharmed', async () => {
    let now = 1_000_000;
    h = await startAgentHarness({
      settings: { autoRun: true, maxFailedAttempts: 5, mcpServers: { everything: everythingStdio() } },
    });
    // The harness's manager with a clock of our own, so the backoff is stepped through, not waited for.
    const { McpManager } = await import('../../../src-main/core/mcp/mcp-manager');
    const mcp = new McpManager(() => h!.settings.get().mcpServers, { clock: () => now });
    try {
      const tools = await mcp.tools();
      const echo = tools.find((t) => t.tool === 'echo')!;
      const pid = mcp.pidOf('everything');
      expect(pid).toBeGreaterThan(0);
      // A call in flight when the server dies fails with a clear error.
      const long = tools.find((t) => t.tool === 'trigger-long-running-operation')!;
      const inFlight = mcp.call(long, { duration: 30, steps: 3 }, { timeoutMs: 60_000, signal: new AbortController().signal });
      process.kill(pid!, 'SIGKILL');
      await expect(inFlight).rejects.toThrow(/closed|Connection/i);
      await expect.poll(async () => (await mcp.status())[0]?.state).toBe('crashed');
      const crashed = (await mcp.status())[0];
      expect(crashed).toMatchObject({ restarts: 1, lastError: expect.stringMatching(/crashed or exited/) });
      // Within the backoff it is left out; after it, started again.
      expect(await mcp.tools()).toEqual([]);
      now += 1000;
      expect((await mcp.tools()).map((t) => t.name)).toContain(echo.name);
      expect(mcp.pidOf('everything')).not.toBe(pid);
      // Crashing again doubles the wait.
      process.kill(mcp.pidOf('everything')!, 'SIGKILL');
      await expect.poll(async () => (await mcp.status())[0]?.state).toBe('crashed');
      now += 1000;
      expect(await mcp.tools()).toEqual([]);
      now += 1000;
      expect((await mcp.tools()).length).toBeGreaterThan(0);
    } finally {
      await mcp.dispose();
    }
  });

  it('tells the model when a call fails because the server died', async () => {
    h = await startAgentHarness({
      settings: { autoRun: true, maxFailedAttempts: 5, mcpServers: { everything: everythingStdio() } },
    });
    h.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'c1', name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 30, steps: 3 } }],
      },
      { kind: 'text', text: 'noted' },
    );
    const id = await h.newConversation();
    const sent = h.send(id, 'go');
    await h.waitFor('cell.running');
    await expect.poll(() => h!.mcp.pidOf('everything')).toBeGreaterThan(0);
    process.kill(h.mcp.pidOf('everything')!, 'SIGKILL');
    await sent;
    const [cell] = await cells(id);
    expect(cell?.status).toBe('failed');
    expect(cell?.resultForModel).toMatch(/The MCP call failed: .*(closed|Connection)/i);
    expect((await h.agent.snapshot(id)).items.at(-1)).toMatchObject({ kind: 'assistant', text: 'noted' });
  });
});

describe('approval per tool', () => {
  it('runs a tool the user always allows without asking, and asks again once that is taken back', async () => {
    // get-sum is marked read-only by its server; the user set it to Ask (askTools).
    h = await startAgentHarness({
      settings: { mcpServers: { everything: everythingStdio({ alwaysAllow: ['echo'], askTools: ['get-sum'] }) } },
    });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__everything__echo', arguments: { message: 'a' } }] },
      { kind: 'text', text: 'ok' },
    );
    const id = await h.newConversation();
    await h.send(id, 'one');
    expect((await cells(id))[0]).toMatchObject({ status: 'done', approval: 'auto' });
    expect(h.payloads('cell.awaiting-approval')).toEqual([]);

    // Another tool of the same server, set to Ask, asks.
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c2', name: 'mcp__everything__get-sum', arguments: { a: 1, b: 2 } }] },
      { kind: 'text', text: 'ok' },
    );
    const second = h.send(id, 'two');
    const asked = await h.waitFor('cell.awaiting-approval');
    expect(asked.cell.language).toBe('mcp:everything/get-sum');
    h.agent.approve(id, asked.cell.id, null, false);
    await second;

    // Taken back (set to Ask, kept as askTools since echo is marked read-only): echo asks too.
    h.settings.update({ mcpServers: { everything: everythingStdio({ askTools: ['echo'] }) } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c3', name: 'mcp__everything__echo', arguments: { message: 'b' } }] },
      { kind: 'text', text: 'ok' },
    );
    const third = h.send(id, 'three');
    const again = await h.waitFor('cell.awaiting-approval', (p) => p.cell.language === 'mcp:everything/echo');
    h.agent.skip(id, again.cell.id);
    await third;
    expect((await cells(id)).at(-1)).toMatchObject({ status: 'skipped', approval: 'declined' });
  });

  it('never offers a tool the user turned off', async () => {
    h = await startAgentHarness({
      settings: { autoRun: true, mcpServers: { everything: everythingStdio({ disabledTools: ['get-env'] }) } },
    });
    h.llm.enqueue({ kind: 'text', text: 'hi' });
    const id = await h.newConversation();
    await h.send(id, 'hi');
    const tools = ((h.bodies()[0] as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
    expect(tools).toContain('mcp__everything__echo');
    expect(tools).not.toContain('mcp__everything__get-env');
  });
});

describe('progress and records', () => {
  it('shows the server’s progress notifications in the running cell', async () => {
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: { everything: everythingStdio() } } });
    h.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'c1', name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }],
      },
      { kind: 'text', text: 'ok' },
    );
    const id = await h.newConversation();
    await h.send(id, 'progress');
    const shown = h
      .payloads('cell.terminal')
      .map((p) => p.data)
      .join('');
    expect(shown).toContain('progress 1/3 (33%)');
    expect(shown).toContain('progress 2/3 (67%)');
  });

  it('exports calls as markdown cells with the call and its result, images attached, and imports them back', async () => {
    h = await startAgentHarness({ settings: { autoRun: true, mcpServers: { everything: everythingStdio() } } });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'mcp__everything__echo', arguments: { message: 'has ``` fences' } }] },
      { kind: 'tool', calls: [{ id: 'c2', name: 'mcp__everything__get-tiny-image', arguments: {} }] },
      { kind: 'text', text: 'ok' },
    );
    const id = await h.newConversation();
    await h.send(id, 'two calls');
    const conv = await h.agent.snapshot(id);
    const nb = exportNotebook(conv, { appVersion: 't', provider: 'openai', model: 'm' });
    const md = nb.cells.filter((c) => c.cell_type === 'markdown' && Array.isArray(c.source) && c.source.join('').includes('**MCP call**'));
    expect(md).toHaveLength(2);
    const echo = md[0]!.source as string[];
    expect(echo.join('')).toContain('server `everything` · tool `echo` · done');
    expect(echo.join('')).toContain('````text\nEcho: has ``` fences\n````');
    expect(nb.cells.some((c) => c.cell_type === 'code')).toBe(false);
    const image = md[1] as { attachments?: Record<string, Record<string, string>>; source: string[] };
    expect(Object.values(image.attachments ?? {})[0]?.['image/png']).toBeTruthy();
    expect(image.source.join('')).toMatch(/!\[mcp-image-1\.png\]\(attachment:mcp-image-1\.png\)/);

    const back = importNotebook(serializeNotebook(nb), { maxBytes: 10_000_000 });
    const imported = back.conversationItems.filter((i): i is CellItem => i.kind === 'cell');
    expect(imported.map((c) => c.language)).toEqual(['mcp:everything/echo', 'mcp:everything/get-tiny-image']);
    expect(JSON.parse(imported[0]!.code)).toEqual({ message: 'has ``` fences' });
    expect(imported[0]!.outputs).toEqual(conv.items.filter((i): i is CellItem => i.kind === 'cell')[0]!.outputs);
    expect(back.warnings).toEqual([]);
  });
});
