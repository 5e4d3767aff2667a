import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { createSessionRouter, type Sandbox } from '../../../src-main/core/exec';
import { sandboxVisibleScratch } from '../../support/sandbox-visible-scratch';
import { type Harness, startHarness, streamTextOf as stdout } from '../../support/exec-harness';

// A sandboxed session's network through the app's proxy, for real: bubblewrap with --unshare-net, the
// relay started inside it, the proxy on a Unix socket in the session's private folder, and a server on
// the host. The policy is the test's: it records what it was asked and answers as each test says.

const PYTHON = '/usr/bin/python3';
const HOST = '127.0.0.2';
const SANDBOX: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe('the sandbox reaches the network only through the app proxy', () => {
  let base: string;
  let h: Harness;
  let server: Server;
  let port: number;
  let served = 0;
  const asked: string[] = [];
  let verdict: (host: string) => Sandbox.NetworkVerdict = () => ({ allow: false, reason: 'not in this test' });
  const policy: Sandbox.NetworkPolicy = (host, p) => {
    asked.push(`${host}:${p}`);
    return Promise.resolve(verdict(host));
  };
  let withoutProxy: Harness;

  beforeAll(async () => {
    base = await mkdtemp(join(sandboxVisibleScratch() ?? resolve(import.meta.dirname, '../../../test-results'), 'net-'));
    await mkdir(join(base, 'ws'), { recursive: true });
    await mkdir(join(base, 'ws2'), { recursive: true });
    server = createServer((_req, res) => {
      served++;
      res.end('hello from the host\n');
    });
    // 127.0.0.2: an address of this machine that is not in the sandbox's NO_PROXY (which keeps
    // localhost and 127.0.0.1 for servers the code starts inside), so clients go through the proxy.
    await new Promise<void>((r) => server.listen(0, HOST, r));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    const settings = { pythonPath: PYTHON };
    // graceMs: the relay test's stop must reach "kill the run's processes" and end there. With 300 ms the
    // next step ("kill the session", 300 ms later) overtook a loaded machine's kill inside the sandbox
    // and took the session, and its state, with it (seen at load 20-25).
    h = await startHarness({
      workspace: join(base, 'ws'),
      settings,
      graceMs: 3000,
      router: createSessionRouter({ network: () => policy }),
    });
    withoutProxy = await startHarness({ workspace: join(base, 'ws2'), settings, router: createSessionRouter() });
  });

  afterAll(async () => {
    await h?.close();
    await withoutProxy?.close();
    await new Promise((r) => server?.close(r));
    await rm(base, { recursive: true, force: true });
  });

  const fetchCode = (url: string) =>
    [
      'import os, urllib.request',
      'print("proxy", os.environ.get("HTTPS_PROXY"))',
      'try:',
      `    print("GOT", urllib.request.urlopen(${JSON.stringify(url)}, timeout=20).read().decode().strip())`,
      'except Exception as e:',
      '    print("FAILED", e)',
    ].join('\n');

  it('lets an allowed host through, over plain HTTP', async () => {
    verdict = () => ({ allow: true, mayBeLocal: true });
    const before = served;
    const result = await h.run('python', fetchCode(`http://${HOST}:${port}/`), { sandbox: SANDBOX, conversationId: 'allowed' });
    expect(stdout(result)).toContain('GOT hello from the host');
    expect(served).toBe(before + 1);
    expect(asked).toContain(`${HOST}:${port}`);
  });

  it('tunnels with CONNECT (how HTTPS goes) to an allowed host', async () => {
    verdict = () => ({ allow: true, mayBeLocal: true });
    const code = [
      'import http.client',
      'c = http.client.HTTPConnection("127.0.0.1", 47127, timeout=20)',
      `c.set_tunnel("${HOST}", ${port})`,
      'c.request("GET", "/")',
      'print("TUNNEL", c.getresponse().read().decode().strip())',
    ].join('\n');
    const result = await h.run('python', code, { sandbox: SANDBOX, conversationId: 'tunnel' });
    expect(stdout(result)).toContain('TUNNEL hello from the host');
  });

  it('refuses a host the policy refuses, saying why, and the host sees nothing', async () => {
    verdict = () => ({ allow: false, reason: 'example refusal' });
    const before = served;
    const result = await h.run('python', fetchCode(`http://${HOST}:${port}/`), { sandbox: SANDBOX, conversationId: 'refused' });
    expect(stdout(result)).toMatch(/FAILED .*403: Refused by the sandbox: example refusal/);
    expect(served).toBe(before);
  });

  it('refuses an allowed name that is an address on this machine unless the person listed it', async () => {
    verdict = () => ({ allow: true, mayBeLocal: false });
    const before = served;
    const result = await h.run('python', fetchCode(`http://${HOST}:${port}/`), { sandbox: SANDBOX, conversationId: 'rebinding' });
    expect(stdout(result)).toMatch(/FAILED .*403: Refused by the sandbox: 127\.0\.0\.2 is an address on this machine/);
    expect(served).toBe(before);
  });

  it('refuses HTTPS to a refused host through the tunnel', async () => {
    verdict = () => ({ allow: false, reason: 'not allowed here' });
    const result = await h.run('shell', `curl -sS -o /dev/null https://example.invalid/ 2>&1; echo "exit=$?"`, {
      sandbox: SANDBOX,
      conversationId: 'curl',
    });
    expect(stdout(result)).toMatch(/403/);
    expect(stdout(result)).toMatch(/exit=56/);
    expect(asked).toContain('example.invalid:443');
  });

  it('twin: without the proxy the sandbox has no way out at all', async () => {
    const result = await withoutProxy.run('python', fetchCode(`http://${HOST}:${port}/`), { sandbox: SANDBOX, conversationId: 'none' });
    expect(stdout(result)).toContain('proxy None');
    expect(stdout(result)).toMatch(/FAILED .*(Connection refused|Network is unreachable)/);
  });

  it('keeps the relay when a stopped run’s leftover processes are killed', async () => {
    verdict = () => ({ allow: true, mayBeLocal: true });
    const id = 'relay-survives';
    // The foreground program ignores Ctrl-C, so the stop goes on to kill the run's processes inside
    // the sandbox (run-control.ts, level 2): the session and its relay must stay.
    const stopped = await h.run('shell', "kept=yes\ntrap '' INT\nsleep 30", {
      sandbox: SANDBOX,
      conversationId: id,
      settings: { timeoutMs: 1500 },
    });
    expect(stopped.status).toBe('timeout');
    const result = await h.run('shell', `echo "kept=$kept"; curl -sS http://${HOST}:${port}/`, { sandbox: SANDBOX, conversationId: id });
    expect(stdout(result)).toContain('kept=yes');
    expect(stdout(result)).toContain('hello from the host');
  });

  it('starts one relay process per session, in a session of its own', async () => {
    // One Node start-up per sandboxed session (network-relay.ts): the relay is not a daemon that
    // started a second process; setsid keeps the terminal's signals and the run's kills off it.
    const code = [
      'n=0; for f in /proc/[0-9]*/cmdline; do case "$(tr "\\0" " " < "$f" 2>/dev/null)" in oi-net-relay*) n=$((n+1)); r=${f%/cmdline};; esac; done',
      'echo "relays=$n"',
      '[ "$(cut -d" " -f6 "$r/stat")" != "$(cut -d" " -f6 /proc/$$/stat)" ] && echo "own-session=yes"',
    ].join('\n');
    const result = await h.run('shell', code, { sandbox: SANDBOX, conversationId: 'relay-count' });
    expect(stdout(result)).toContain('relays=1');
    expect(stdout(result)).toContain('own-session=yes');
  });
});
