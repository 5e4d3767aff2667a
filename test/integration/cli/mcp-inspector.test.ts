import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OI, REPO } from '../../support/cli-process';
import { useOiMcp } from '../../support/oi-mcp';

// `oi mcp` driven by the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, devDependency), the
// tool people check a server with: a real client we did not write, started as a user would.
// The inspector-cli package looks for its own package.json relative to the CURRENT folder
// (`../package.json`), so it is run from its build folder. Version 1 prints a deprecation notice on
// standard error (version 2 needs Node 22.19); the answers on standard output are the same.

const BUILD = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');

function inspector(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(BUILD, 'cli.js'), '--cli', ...args],
      { cwd: BUILD, env, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const oi = useOiMcp();

describe('oi mcp under the MCP Inspector CLI', () => {
  it('lists the tools and runs code over stdio, from a client config file', { timeout: 120_000 }, async () => {
    const { dir, env, ws } = oi.data('oi-mcp-inspector-');
    const config = path.join(dir, 'clients.json');
    // The same mcpServers shape Claude Desktop and Cursor read (docs/mcp.md).
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { oi: { command: process.execPath, args: [...OI, 'mcp', '--workspace', ws, '--auto-run'], env } } }),
    );

    const listed = await inspector(['--config', config, '--server', 'oi', '--method', 'tools/list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = (JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: { required?: string[] } }[] }).tools;
    expect(tools.find((t) => t.name === 'execute')?.inputSchema.required).toEqual(['language', 'code']);

    const ran = await inspector(
      [
        '--config',
        config,
        '--server',
        'oi',
        '--method',
        'tools/call',
        '--tool-name',
        'execute',
        '--tool-arg',
        'language=python',
        '--tool-arg',
        'code=print(6 * 7)',
      ],
      env,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ content: [{ type: 'text', text: '42' }] });
  });

  it('reaches oi mcp --http with the token as a header, and is refused without it', { timeout: 120_000 }, async () => {
    const { env, ws } = oi.data('oi-mcp-inspector-');
    const http = await oi.http(['--workspace', ws, '--auto-run'], env, ws);
    const target = [http.url.href, '--transport', 'http'];
    const call = ['--method', 'tools/call', '--tool-name', 'execute', '--tool-arg', 'language=shell', '--tool-arg', 'code=echo over http'];

    const ran = await inspector([...target, '--header', `Authorization: Bearer ${http.token}`, ...call], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ content: [{ type: 'text', text: 'over http' }] });

    const refused = await inspector([...target, ...call], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).not.toContain('over http');
    expect(refused.stdout + refused.stderr).toContain('this server needs its token');
  });
});
