import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, vi } from 'vitest';
import { alive, call, connectHttp, pythonPid, textOf, useOiMcp } from '../../support/oi-mcp';

// `oi mcp --http --idle-timeout`: a client that goes away without DELETE (here an SDK client whose
// transport is closed: its connections drop, no DELETE is sent) has its MCP session ended and its
// language sessions stopped, while a client that stays connected (the SDK keeps a GET stream open)
// keeps its state. Observed by polling: the server's line, the Python process gone, the old session
// id refused; nothing waits a fixed time.

const oi = useOiMcp();

/** A raw request on an old session id: what status the server answers. */
function statusFor(url: URL, token: string, sessionId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
  });
}

describe('oi mcp --http ends the sessions of clients that went away', () => {
  it('stops an idle client’s language sessions after --idle-timeout, and keeps a connected one’s', { timeout: 240_000 }, async () => {
    const { env, ws } = oi.data('oi-mcp-idle-');
    // --no-sandbox: the test follows the session's process by its pid, which the sandbox's own PID namespace hides.
    const http = await oi.http(['--workspace', ws, '--auto-run', '--idle-timeout', '1', '--no-sandbox'], env, ws);
    const auth = { Authorization: `Bearer ${http.token}` };

    const stays = await connectHttp(http.url, auth);
    const transport = new StreamableHTTPClientTransport(http.url, { requestInit: { headers: auth } });
    const goes = new Client({ name: 'oi-idle-gone', version: '1.0.0' });
    await goes.connect(transport);
    try {
      const pid = await pythonPid(goes);
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid)).toBe(true);
      expect(textOf(await call(stays, 'execute', { language: 'python', code: 'y = 7\nprint("set")' }))).toBe('set');
      const sessionId = transport.sessionId ?? '';
      expect(sessionId).not.toBe('');

      // The client goes away: its connections drop, no DELETE.
      await transport.close();

      await vi.waitFor(() => expect(http.stderr()).toContain('ended the MCP session of "oi-idle-gone"'), {
        timeout: 60_000,
        interval: 100,
      });
      await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 60_000, interval: 100 });
      expect(await statusFor(http.url, http.token, sessionId)).toBe(404);

      // Twin: the client that stayed connected was not idle, whatever the time: its session and variable are there.
      expect(http.stderr()).not.toContain('ended the MCP session of "oi-test-http-client"');
      expect(textOf(await call(stays, 'execute', { language: 'python', code: 'print(y)' }))).toBe('7');
    } finally {
      await stays.close();
    }
  });
});
