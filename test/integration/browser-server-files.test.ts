import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { startAppUnderTest, type AppUnderTest } from '../support/app-under-test';

// Browser mode's download route on the real server and the real app: GET /files/<id>/<path>.

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sha256: string;
}

/** A GET (or HEAD) with the path sent exactly as given: no client-side `..` resolution. */
function fetchRaw(base: string, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(base, { path: rawPath, method, headers }, (res) => {
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (c: Buffer) => {
        hash.update(c);
        // Big bodies are only hashed; keeping them whole would test the test's memory, not the server.
        if (kept < 1024 * 1024) chunks.push(c);
        kept += c.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), sha256: hash.digest('hex') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const enc = (rel: string) => rel.split('/').map(encodeURIComponent).join('/');

describe('browser mode: downloading workspace files', () => {
  let aut: AppUnderTest;
  let base: string;
  let cookie: string;
  let id: string;
  let workspace: string;
  let outsideDir: string;
  const binary = randomBytes(64 * 1024);
  const bigPath = 'out/big.bin';
  let bigHash = '';
  const BIG_BYTES = 20 * 1024 * 1024;

  const files = (rel: string, headers: Record<string, string> = { cookie }, method = 'GET') =>
    fetchRaw(base, `/files/${id}/${rel}`, headers, method);

  beforeAll(async () => {
    aut = await startAppUnderTest();
    base = aut.server.url;
    const launch = await fetchRaw(base, `/?token=${aut.server.token}`);
    cookie = String(launch.headers['set-cookie']).split(';')[0] ?? '';
    const conv = await aut.app.handlers['conversation.create']({}, { transport: 'websocket' });
    id = conv.id;
    workspace = conv.workspace;

    mkdirSync(path.join(workspace, 'out', 'sub'), { recursive: true });
    writeFileSync(path.join(workspace, 'notes é.txt'), 'héllo, wörld\n');
    writeFileSync(path.join(workspace, 'out', 'data.bin'), binary);
    writeFileSync(path.join(workspace, 'page.html'), '<script>document.title = "ran"</script>');
    symlinkSync(path.join(workspace, 'out', 'data.bin'), path.join(workspace, 'link-inside.bin'));

    outsideDir = path.join(aut.dataDir, 'outside');
    mkdirSync(outsideDir, { recursive: true });
    writeFileSync(path.join(outsideDir, 'secret.txt'), 'not yours');
    symlinkSync(path.join(outsideDir, 'secret.txt'), path.join(workspace, 'escape.txt'));
    symlinkSync(outsideDir, path.join(workspace, 'escape-dir'));
    execFileSync('mkfifo', [path.join(workspace, 'pipe')]);

    // 20 MB written in chunks, hashed as written.
    const hash = createHash('sha256');
    const out = createWriteStream(path.join(workspace, bigPath));
    for (let i = 0; i < BIG_BYTES / (1024 * 1024); i++) {
      const chunk = randomBytes(1024 * 1024);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    bigHash = hash.digest('hex');
  });
  afterAll(async () => aut?.close());

  it('sends a text file byte for byte, as an attachment under its own (Unicode) name', async () => {
    const reply = await files(enc('notes é.txt'));
    expect(reply.status).toBe(200);
    expect(reply.body.toString('utf8')).toBe('héllo, wörld\n');
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="notes _.txt"; filename*=UTF-8''notes%20%C3%A9.txt`);
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength('héllo, wörld\n')));
  });

  it('sends a binary file byte for byte, and a link inside the workspace under the link’s name', async () => {
    const reply = await files('out/data.bin');
    expect(reply.status).toBe(200);
    expect(reply.body.equals(binary)).toBe(true);
    const viaLink = await files('link-inside.bin');
    expect(viaLink.status).toBe(200);
    expect(viaLink.sha256).toBe(sha256(binary));
    expect(viaLink.headers['content-disposition']).toMatch(/filename\*=UTF-8''link-inside\.bin$/);
  });

  it('streams a 20 MB file whole', async () => {
    const reply = await files(bigPath);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-length']).toBe(String(BIG_BYTES));
    expect(reply.sha256).toBe(bigHash);
  });

  it('never serves a file as a page of the app: attachment, octet-stream, nosniff, sandboxing CSP', async () => {
    for (const method of ['GET', 'HEAD']) {
      const reply = await files('page.html', { cookie }, method);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/octet-stream');
      expect(reply.headers['content-disposition']).toMatch(/^attachment; /);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(reply.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/(^|; )sandbox(;|$)/);
      expect(reply.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers['set-cookie']).toBeUndefined();
      if (method === 'HEAD') expect(reply.body.length).toBe(0);
    }
  });

  it('refuses without the token cookie, with a wrong one, and for another Host (401, 421)', async () => {
    expect((await files('out/data.bin', {})).status).toBe(401);
    expect((await files('out/data.bin', { cookie: `${aut.server.cookieName}=wrong` })).status).toBe(401);
    expect((await files('out/data.bin', { cookie: `${aut.server.cookieName}=${aut.server.token}x` })).status).toBe(401);
    const noAuth = await fetchRaw(base, `/files/${id}/out/data.bin?token=nope`);
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.includes(binary.subarray(0, 32))).toBe(false);
    expect((await files('out/data.bin', { cookie, host: 'evil.example:80' })).status).toBe(421);
  });

  it('refuses paths that leave the workspace, literally or encoded, and links pointing outside (403)', async () => {
    const rel = path.relative(workspace, path.join(outsideDir, 'secret.txt'));
    for (const attempt of [
      rel,
      encodeURIComponent(rel),
      '..%2F..%2Foutside%2Fsecret.txt',
      `out/../${rel}`,
      '%2Fetc%2Fpasswd',
      'escape.txt',
      'escape-dir/secret.txt',
      'nul.txt',
    ]) {
      const reply = await files(attempt);
      expect(reply.status, attempt).toBe(403);
      expect(reply.body.toString(), attempt).not.toContain('not yours');
    }
    expect((await files('escape.txt')).body.toString()).toMatch(/outside the workspace/);
  });

  it('refuses folders and other non-regular files (403), answers 404 for a missing file or conversation', async () => {
    const dir = await files('out/sub');
    expect(dir.status).toBe(403);
    expect(dir.body.toString()).toMatch(/is a folder/);
    const fifo = await files('pipe');
    expect(fifo.status).toBe(403);
    expect(fifo.body.toString()).toMatch(/not a regular file/);
    const missing = await files('out/nope.csv');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toMatch(/does not exist/);
    expect((await files('out/data.bin/x')).status).toBe(404);
    const otherConversation = await fetchRaw(base, '/files/no-such-conversation/out/data.bin', { cookie });
    expect(otherConversation.status).toBe(404);
    expect(otherConversation.body.toString()).toMatch(/no conversation/);
  });

  it('refuses a malformed conversation id or a missing file path (400)', async () => {
    for (const bad of ['/files/..%2F..%2Fconversations/x', '/files/bad%20id/out/data.bin', '/files/../out/data.bin', '/files/%E0%A4%A/x']) {
      expect((await fetchRaw(base, bad, { cookie })).status, bad).toBe(400);
    }
    expect((await fetchRaw(base, `/files/${id}`, { cookie })).status).toBe(400);
    expect((await fetchRaw(base, `/files/${id}/`, { cookie })).status).toBe(400);
  });

  it('refuses workspace.save-copy in browser mode: the page downloads over HTTP instead', async () => {
    const reply = await createDispatcher(aut.app.handlers)(
      'workspace.save-copy',
      { conversationId: id, path: 'out/data.bin' },
      { transport: 'websocket' },
    );
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'handler-error', message: expect.stringMatching(/no Save dialog in browser mode/) },
    });
  });
});
