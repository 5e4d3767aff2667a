import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runOi } from '../../support/cli-process';
import { resultConversationId } from '../../support/cli-run';
import { call, connectStdio, textOf } from '../../support/oi-mcp';
import { useCliFixtures, userMessages } from './support/oi-terminal-run';

// `oi -c` continues the person's last conversation. A real `oi mcp` sharing the data folder records
// another agent's runs as "MCP: <client>", later than the person's: -c must pass it over, while
// --conversation <id> still opens it.

const { setUp } = useCliFixtures();

describe('oi -c and the conversations oi mcp records', { timeout: 240_000 }, () => {
  it('continues the last conversation of its own, not a newer one an MCP client ran, unless asked for by id', async () => {
    const { llm, dir, flags } = await setUp();
    const env = cliEnv(dir);
    llm.enqueue({ kind: 'text', text: 'The first answer.' }, { kind: 'text', text: 'The second answer.' }, { kind: 'text', text: 'Seen.' });
    const first = await runOi([...flags, '--json', '-m', 'the first question'], env);
    expect(first.code, first.stderr).toBe(0);
    const mine = resultConversationId(first.stdout);

    // Another agent runs code through oi mcp: its conversation is saved after ours.
    const ws = path.join(dir, 'ws');
    const mcp = await connectStdio(['--workspace', ws, '--auto-run'], env, ws);
    try {
      expect(textOf(await call(mcp.client, 'execute', { language: 'shell', code: 'echo recorded' }))).toBe('recorded');
    } finally {
      await mcp.close();
    }
    const listed = await runOi(['--list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.split('\n');
    // Newest first: the MCP client's conversation is the last one used.
    const mcpLine = lines.findIndex((l) => l.includes('MCP: oi-test-client'));
    expect(mcpLine).toBeGreaterThanOrEqual(0);
    expect(mcpLine).toBeLessThan(lines.findIndex((l) => l.includes(mine)));
    const theirs = (lines[mcpLine] ?? '').split(/\s+/)[0] ?? '';

    const continued = await runOi([...flags, '--json', '-c', '-m', 'the second question'], env);
    expect(continued.code, continued.stderr).toBe(0);
    expect(resultConversationId(continued.stdout)).toBe(mine);
    expect(userMessages(llm)).toEqual(['the first question', 'the second question']);

    // Asked for by id, the MCP conversation opens.
    const opened = await runOi([...flags, '--json', '--conversation', theirs, '-m', 'the third question'], env);
    expect(opened.code, opened.stderr).toBe(0);
    expect(resultConversationId(opened.stdout)).toBe(theirs);
  });
});
