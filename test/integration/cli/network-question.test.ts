import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastToolResult, useCliFixtures } from './support/oi-terminal-run';
import { cliEnv, runOi } from '../../support/cli-process';
import { PROXIED_HOST, startHostServer, type HostServer } from '../../support/host-server';

// oi with the sandbox on by default: code that wants a host the sandbox does not let through by itself
// is asked about on the prompt line (docs/sandbox.md "Network"); without a terminal nobody can be
// asked, so the host is refused and the note says how to allow it.

const HOST = PROXIED_HOST;
const fixtures = useCliFixtures();

describe('oi asks before sandboxed code reaches a host', () => {
  let host: HostServer;
  let port: number;
  const served = () => host.served();

  beforeAll(async () => {
    host = await startHostServer();
    port = host.port;
  });
  afterAll(() => host?.close());

  const fetchCall = (id: string) => ({
    kind: 'tool' as const,
    calls: [
      {
        id,
        name: 'execute',
        arguments: {
          language: 'shell',
          code: `curl -sS --max-time 60 -w "status %{http_code}\\n" http://${HOST}:${port}/ || echo "curl failed"`,
        },
      },
    ],
  });

  it('in a terminal: the question names the host; y lets this conversation through', { timeout: 180_000 }, async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    llm.enqueue(fetchCall('net_y'), { kind: 'text', text: 'It answered.' });
    const oi = fixtures.terminal([...flags, '--workspace', path.join(dir, 'ws'), '-y'], cliEnv(dir));
    await oi.expect('> ');
    const before = served();
    oi.line('fetch it');
    await oi.expect(`The code wants to connect to ${HOST}:${port}`);
    await oi.expect('Allow it? (y)es in this conversation, (a)lways, (n)o');
    oi.line('y');
    await oi.expect('hello from the host');
    await oi.expect('It answered.');
    expect(served()).toBe(before + 1);
    expect(lastToolResult(llm)).toContain('hello from the host');
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });

  it('without a terminal: refused, said on stderr, and the server never reached', { timeout: 180_000 }, async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    llm.enqueue(fetchCall('net_none'), { kind: 'text', text: 'It was refused.' });
    const before = served();
    const result = await runOi([...flags, '--workspace', path.join(dir, 'ws'), '-y', '-m', 'fetch it'], cliEnv(dir));
    expect(result.stderr).toContain(`Not letting the code reach ${HOST}: no terminal to ask`);
    expect(lastToolResult(llm)).toMatch(/status 403/);
    expect(served()).toBe(before);
  });

  it('twin: with --no-sandbox nobody is asked and the code reaches the host directly', { timeout: 180_000 }, async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    llm.enqueue(fetchCall('net_off'), { kind: 'text', text: 'It answered.' });
    const before = served();
    const result = await runOi([...flags, '--workspace', path.join(dir, 'ws'), '-y', '--no-sandbox', '-m', 'fetch it'], cliEnv(dir));
    expect(result.stderr).not.toContain('Not letting the code reach');
    expect(lastToolResult(llm)).toContain('hello from the host');
    expect(served()).toBe(before + 1);
  });
});
