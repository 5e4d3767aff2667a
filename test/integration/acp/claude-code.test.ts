import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { acpAgents, type AcpAgents } from '../../support/acp-agents';
import { CLAUDE_CODE, CLAUDE_CODE_KEY, claudeCodeSecrets, withClaudeCode } from '../../support/claude-code-agent';
import { useCoreApps } from '../../support/core-apps';
import { agentText, hostedConversation } from '../../support/hosted-agent';
import { useScriptedLlms } from '../../support/scripted-llm';

// A real outside agent hosted by our ACP client (docs/acp.md#hosting): Claude Code, through Zed's
// `@zed-industries/claude-agent-acp` installed from npm (test/support/acp-agents.ts), pointed at the
// scripted Anthropic server by ANTHROPIC_BASE_URL and given the app's stored key (`key: anthropic`). It
// runs in our sandbox with its provider as its only network (through the app's proxy). This adapter
// reads, writes and runs commands itself (Claude Code's Read, Write and Bash), never through fs/* or
// terminal/*; what we hold is its permission requests (our approval cards), checkpoints around what it
// was allowed to do, and the sandbox around all of it.

const core = useCoreApps('oi-claude-code-');
const startLlm = useScriptedLlms();
let agents: AcpAgents;
// Another server on this machine, which the agent's command tries to reach through its proxy.
let hits = 0;
const secret = createServer((_req, res) => {
  hits++;
  res.end('the local secret');
});

beforeAll(async () => {
  agents = await acpAgents();
  await new Promise<void>((done) => secret.listen(0, '127.0.0.1', done));
}, 300_000);
afterAll(() => new Promise<void>((done) => secret.close(() => done())));

const cells = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');

describe('Claude Code (claude-agent-acp) hosted against the scripted Anthropic server', () => {
  it('reads a file, writes one and runs a command after our approval cards, each checkpointed; a write outside and another local server are refused', async () => {
    const llm = await startLlm();
    const outside = core.tempDir();
    const secretUrl = `http://127.0.0.1:${(secret.address() as AddressInfo).port}/`;
    const workspace = path.join(core.tempDir(), 'ws');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, 'input.txt'), 'hello from input\n');
    llm.enqueue(
      { kind: 'tool', calls: [{ name: 'Read', arguments: { file_path: path.join(workspace, 'input.txt') } }] },
      {
        kind: 'tool',
        calls: [{ name: 'Write', arguments: { file_path: path.join(workspace, 'out.txt'), content: 'written by claude\n' } }],
      },
      {
        kind: 'tool',
        calls: [
          {
            name: 'Bash',
            arguments: {
              command: `echo ran > ran.txt; echo escaped > ${outside}/by-bash.txt || echo outside refused; curl -s -m 10 ${secretUrl}`,
              description: 'make ran.txt',
            },
          },
        ],
      },
      { kind: 'text', text: 'all done' },
    );
    const settings = new MemorySettingsStore(withClaudeCode(agents, llm.url));
    const app = core.app(settings, await claudeCodeSecrets());
    const host = await hostedConversation(app, workspace, undefined, CLAUDE_CODE);
    host.answers.push('approve');
    const conv = await host.send('read input.txt, write out.txt, make ran.txt');

    expect(agentText(conv)).toContain('all done');
    // Every model call reached the scripted server with the app's stored key, through the proxy.
    expect(llm.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(4);
    expect(llm.requests.every((r) => r.headers['x-api-key'] === CLAUDE_CODE_KEY)).toBe(true);

    const read = cells(conv).find((c) => c.language === 'mcp:acp/read');
    expect(read).toMatchObject({ status: 'done', mcp: { server: 'Claude Code', tool: 'read' } });
    expect(read?.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('')).toContain('hello from input');

    // Two cards: the write and the command; the read needed none.
    expect(host.asked).toHaveLength(2);
    const write = cells(conv).find((c) => c.language === 'mcp:acp/edit');
    expect(write).toMatchObject({ status: 'done', approval: 'user' });
    expect(write?.changes?.files).toEqual([expect.objectContaining({ path: 'out.txt', change: 'created' })]);
    const command = cells(conv).find((c) => c.language === 'mcp:acp/execute');
    expect(command?.status).toBe('done');
    expect(command?.changes?.files).toEqual([expect.objectContaining({ path: 'ran.txt', change: 'created' })]);
    const said = command?.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
    expect(said).toContain('outside refused');
    expect(fs.readdirSync(outside)).toEqual([]);
    // Its network is its provider: the other server is refused by the proxy, in words, and sees nothing.
    expect(said).toContain('403 Refused by the sandbox: the agent "Claude Code" may reach only its provider');
    expect(hits).toBe(0);

    await host.call('checkpoints.restore', { conversationId: host.id, cellId: write?.id, confirm: true });
    expect(fs.existsSync(path.join(workspace, 'out.txt'))).toBe(false);
  });
});
