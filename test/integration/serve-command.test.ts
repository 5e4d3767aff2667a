import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REPO_ROOT } from '../support/app-under-test';

const SERVE = path.join(REPO_ROOT, 'out', 'main', 'serve.js');

describe('`npm run serve` (the built browser-mode entry)', () => {
  let child: ChildProcess | null = null;
  let dataDir = '';
  afterEach(() => {
    child?.kill('SIGTERM');
    child = null;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a 127.0.0.1 URL with a token, and refuses the page without it', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-serve-'));
    child = spawn(process.execPath, [SERVE, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child?.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /(http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child?.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    const parsed = new URL(url);
    expect(parsed.hostname).toBe('127.0.0.1');
    expect(parsed.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const withToken = await fetch(url);
    expect(withToken.status).toBe(200);
    const without = await fetch(`${parsed.origin}/`);
    expect(without.status).toBe(401);
  });

  it('answers a request sent the moment the URL is printed, before the app was built', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-serve-'));
    child = spawn(process.execPath, [SERVE, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const answer = await new Promise<string>((resolve, reject) => {
      let out = '';
      let asked = false;
      child?.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /http:\/\/(\S+?)\/\?token=(\S+)/.exec(out);
        if (!m || asked) return;
        asked = true;
        const ws = new WebSocket(`ws://${m[1]}/ws?token=${m[2]}`);
        ws.on('open', () => ws.send(JSON.stringify({ type: 'request', id: 7, name: 'app.info', input: {} })));
        ws.on('message', (raw: Buffer) => {
          ws.close();
          resolve(raw.toString());
        });
        ws.on('error', reject);
      });
      child?.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    expect(JSON.parse(answer)).toMatchObject({
      type: 'response',
      id: 7,
      ok: true,
      result: { transport: 'websocket', notices: expect.any(Array) },
    });
  });

  it('refuses to listen on a non-loopback address without --allow-remote', () => {
    const run = spawnSync(process.execPath, [SERVE, '--host', '0.0.0.0'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/refusing to listen on 0\.0\.0\.0/);
  });
});
