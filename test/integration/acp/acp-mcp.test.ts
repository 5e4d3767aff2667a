import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, tempDir } from '../../support/cli-process';
import { startOiAcp, updatesOf, type OiAcp } from '../../support/oi-acp';

// The MCP servers an editor passes with session/new are started by the app's MCP client and their
// tools offered to the model, for this run only: the reference server-everything over stdio.

const EVERYTHING = path.resolve(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
let acp: OiAcp | null = null;
afterEach(async () => {
  await acp?.stop();
  await llm?.close();
  data?.remove();
  acp = llm = data = null;
});

describe('oi acp with the client’s MCP servers', () => {
  it(
    'offers the tools of a server passed with session/new, runs a call as a tool call, and never saves the server',
    { timeout: 180_000 },
    async () => {
      llm = await startScriptedLlm();
      data = tempDir('oi-acp-mcp-');
      const ws = path.join(data.dir, 'project');
      acp = startOiAcp(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl], cliEnv(data.dir), ws);
      const init = await acp.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
      const { sessionId } = await acp.connection.agent.request('session/new', {
        cwd: ws,
        mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] }],
      });
      llm.enqueue(
        { kind: 'tool', calls: [{ id: 'call_m', name: 'mcp__everything__echo', arguments: { message: 'hello from the editor' } }] },
        { kind: 'text', text: 'It echoed.' },
      );
      expect(
        (await acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo' }] })).stopReason,
      ).toBe('end_turn');
      const chat = llm.requests.filter((r) => r.path === '/v1/chat/completions');
      const tools = (chat[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools ?? [];
      expect(tools.map((t) => t.function.name)).toContain('mcp__everything__echo');
      const call = updatesOf(acp, 'tool_call', sessionId)[0]!;
      const last = updatesOf(acp, 'tool_call_update', sessionId)
        .filter((u) => u.toolCallId === call.toolCallId)
        .at(-1);
      expect(last?.status).toBe('completed');
      expect(JSON.stringify(last?.content)).toContain('hello from the editor');
      expect(JSON.stringify(chat.at(-1)?.body)).toContain('hello from the editor');
      // The editor's server was this run's: the settings file the desktop app reads does not name it.
      const file = path.join(data.dir, 'settings.json');
      const saved = existsSync(file) ? readFileSync(file, 'utf8') : '';
      expect(saved).not.toContain('everything');
    },
  );
});
