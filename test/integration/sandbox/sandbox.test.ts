import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { createSessionRouter } from '../../../src-main/core/exec';
import { sandboxHandlers } from '../../../src-main/core/handlers/sandbox-handlers';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { sandboxTestHome } from '../../support/sandbox-visible-scratch';
import { type Harness, startHarness, streamTextOf as stdout } from '../../support/exec-harness';

// Real sessions under bubblewrap (Debian's bwrap). The home is a folder of the test's own, outside
// /tmp (which the sandbox replaces anyway), holding a fake ~/.ssh key and the workspace, as a user's
// project inside their home would be.

const PYTHON = '/usr/bin/python3';
const SANDBOX: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe('sandboxed sessions (bubblewrap)', () => {
  let home: string;
  let workspace: string;
  let h: Harness;
  let server: Server;
  let port: number;
  let conversation = 0;

  const run = (language: string, code: string, sandbox: SandboxSettings = SANDBOX, id = 'sandboxed', onTerminal?: (text: string) => void) =>
    h.run(language, code, { sandbox, conversationId: id, onTerminal });
  /** Runs code that prints `started` first, and interrupts it through the service once that is on the terminal. */
  const runInterruptedOnceStarted = (language: string, code: string, id: string) => {
    let seen = '';
    return run(language, code, SANDBOX, id, (text) => {
      seen += text;
      if (seen.includes('started')) h.service.interrupt(id, language);
    });
  };

  beforeAll(async () => {
    ({ home, workspace } = await sandboxTestHome('sandbox-home-'));
    await writeFile(join(home, 'notes.txt'), 'outside the workspace\n');
    h = await startHarness({ workspace, settings: { pythonPath: PYTHON, env: { HOME: home } } });
    server = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });

  afterAll(async () => {
    await h?.close();
    await new Promise((r) => server?.close(r));
    await rm(home, { recursive: true, force: true });
  });

  it('writes inside the workspace and fails to write anywhere else', async () => {
    const code = [
      'import os',
      'open("inside.txt", "w").write("ok")',
      `targets = [${JSON.stringify(join(home, 'outside.txt'))}, "/etc/oi-sandbox-test", "/usr/oi-sandbox-test"]`,
      'for target in targets:',
      '    try:',
      '        open(target, "w").write("escaped")',
      '        print("WROTE", target)',
      '    except OSError as e:',
      '        print("refused", e.strerror)',
    ].join('\n');
    const result = await run('python', code);
    expect(result.status).toBe('done');
    expect(stdout(result)).not.toContain('WROTE');
    expect(stdout(result).match(/refused/g)).toHaveLength(3);
    expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('ok');
    await expect(readFile(join(home, 'outside.txt'))).rejects.toThrow();
  });

  it('cannot read ~/.ssh or anything else in the home outside the workspace', async () => {
    const code = [
      `for path in [${JSON.stringify(join(home, '.ssh', 'id_ed25519'))}, ${JSON.stringify(join(home, 'notes.txt'))}]:`,
      '    try:',
      '        print("READ", open(path).read())',
      '    except OSError as e:',
      '        print("hidden", type(e).__name__)',
    ].join('\n');
    const result = await run('python', code);
    expect(stdout(result)).not.toContain('READ');
    expect(stdout(result)).toContain('hidden FileNotFoundError');
    // The shell sees the same: the home is there, but empty apart from the path to the workspace.
    const listing = await run('shell', `ls -A ${JSON.stringify(home)}; cat ${JSON.stringify(join(home, '.ssh', 'id_ed25519'))}`);
    expect(stdout(listing).trim().split(/\s+/)[0]).toBe('projects');
    expect(stdout(listing)).not.toContain('PRIVATE KEY');
  });

  it('blocks the network unless it is allowed, and says which protections hold', async () => {
    const code = [
      'import socket',
      'try:',
      `    with socket.create_connection(("127.0.0.1", ${port}), timeout=3) as s:`,
      '        print("GOT", s.recv(100).decode().strip())',
      'except OSError as e:',
      '    print("blocked", type(e).__name__)',
    ].join('\n');
    const blocked = await run('python', code);
    expect(stdout(blocked)).toContain('blocked');
    expect(stdout(blocked)).not.toContain('GOT');
    expect(blocked.limits.sandbox).toMatch(/^bubblewrap: /);
    expect(blocked.limits.sandbox).toContain('network off');
    expect(blocked.limits.sandbox).toContain('home folders hidden');

    const allowed = await run('python', code, { ...SANDBOX, allowNetwork: true });
    expect(stdout(allowed)).toContain('GOT hello from the host');
    expect(allowed.limits.sandbox).toContain('network allowed');
    // Switching the setting restarted the session, and the run says so.
    expect(allowed.forModel).toContain('restarted to run in the sandbox');
  });

  it('keeps state, runs in its own process namespace, and can be interrupted', async () => {
    const id = `state-${++conversation}`;
    await run('python', 'import os, time\nx = 41', SANDBOX, id);
    const pid = await run('python', 'print(os.getpid() < 10, x + 1)', SANDBOX, id);
    expect(stdout(pid)).toContain('True 42');
    const interrupted = await runInterruptedOnceStarted('python', 'print("started")\ntime.sleep(30)', id);
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.forModel).toContain('KeyboardInterrupt');
    const after = await run('python', 'print(x)', SANDBOX, id);
    expect(stdout(after)).toContain('41');

    await run('shell', 'cd /usr && export GREETING=hi', SANDBOX, id);
    const shell = await run('shell', 'echo "$GREETING $(pwd)"; touch /usr/oi-x 2>/dev/null || echo read-only', SANDBOX, id);
    expect(stdout(shell)).toContain('hi /usr\nread-only');
    expect((await runInterruptedOnceStarted('shell', 'echo started; sleep 30', id)).status).toBe('interrupted');
    expect(stdout(await run('shell', 'echo still $GREETING', SANDBOX, id))).toContain('still hi');
  });

  it('sandboxes JavaScript sessions the same way', async () => {
    const id = `js-${++conversation}`;
    await run('javascript', 'globalThis.kept = 7', SANDBOX, id);
    const code = [
      "const fs = require('node:fs');",
      "fs.writeFileSync('from-js.txt', 'ok');",
      `for (const target of [${JSON.stringify(join(home, 'js-outside.txt'))}, '/etc/oi-js-test']) {`,
      "  try { fs.writeFileSync(target, 'x'); console.log('WROTE', target); } catch (e) { console.log('refused', e.code); }",
      '}',
      // One string: console.log colours numbers and booleans on a terminal.
      'console.log(`kept ${kept} ${fs.existsSync(' + JSON.stringify(join(home, '.ssh')) + ')}`);',
    ].join('\n');
    const result = await run('javascript', code, SANDBOX, id);
    expect(result.status).toBe('done');
    expect(stdout(result)).not.toContain('WROTE');
    expect(stdout(result).match(/refused E(ROFS|NOENT|ACCES)/g)).toHaveLength(2);
    expect(stdout(result)).toContain('kept 7 false');
    expect(await readFile(join(workspace, 'from-js.txt'), 'utf8')).toBe('ok');
  });

  it('still applies the engine limits inside the sandbox', async () => {
    const code =
      'try:\n    block = bytearray(600 * 1024 * 1024)\n    print("ALLOCATED")\nexcept MemoryError:\n    print("memory limit hit")';
    const result = await h.run('python', code, {
      conversationId: `limits-${++conversation}`,
      sandbox: SANDBOX,
      settings: { memoryMb: 200 },
    });
    expect(stdout(result)).toContain('memory limit hit');
    expect(result.limits.memoryMb).toBe(200);
  });

  it('reports the sandbox to the UI as the cells describe it', async () => {
    const status = sandboxHandlers({
      settings: new MemorySettingsStore({
        sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
      }),
    })['sandbox.status'];
    const on = await status({}, { transport: 'websocket' });
    expect(on).toMatchObject({ enabled: true, available: true, tool: 'bubblewrap', reason: null });
    const cell = await run('python', 'pass');
    expect(on.description).toBe(cell.limits.sandbox);
    const off = await sandboxHandlers({ settings: new MemorySettingsStore({ sandbox: { enabled: false, chosen: true } }) })[
      'sandbox.status'
    ]({}, { transport: 'websocket' });
    expect(off).toMatchObject({ enabled: false, byDefault: false, available: true, description: null });
    // Nothing chosen: the default, on wherever it works.
    const fresh = await sandboxHandlers({ settings: new MemorySettingsStore({}) })['sandbox.status']({}, { transport: 'websocket' });
    expect(fresh).toMatchObject({ enabled: true, byDefault: true, available: true, reason: null });
  });

  /** A harness in the same workspace whose router is told the sandbox cannot work here. */
  const harnessWithoutBubblewrap = () =>
    startHarness({
      workspace,
      settings: { pythonPath: PYTHON },
      router: createSessionRouter({ sandboxSupport: async () => ({ available: false, reason: 'bubblewrap is not installed' }) }),
    });

  it('refuses to run, and says why, when the sandbox cannot work here', async () => {
    const refusing = await harnessWithoutBubblewrap();
    try {
      const result = await refusing.run('python', 'open("ran.txt", "w").write("ran")', { conversationId: 'refused', sandbox: SANDBOX });
      expect(result.status).toBe('unavailable');
      expect(result.forModel).toContain('The sandbox is on, but bubblewrap is not installed. Nothing was run');
      expect(result.limits.sandbox).toBe('requested but unavailable, so nothing runs: bubblewrap is not installed');
      await expect(readFile(join(workspace, 'ran.txt'))).rejects.toThrow();
    } finally {
      await refusing.close();
    }
  });

  it('runs as before, unsandboxed, when the sandbox is only the default and cannot work here', async () => {
    const fallback = await harnessWithoutBubblewrap();
    try {
      const byDefault = { ...SANDBOX, chosen: false };
      const result = await fallback.run('python', 'open("ran-by-default.txt", "w").write("ran")', {
        conversationId: 'fallback',
        sandbox: byDefault,
      });
      expect(result.status).toBe('done');
      expect(result.limits.sandbox).toBeNull();
      expect(await readFile(join(workspace, 'ran-by-default.txt'), 'utf8')).toBe('ran');
    } finally {
      await fallback.close();
    }
  });
});
