import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src-main/core/app';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { warmingDispatcher } from '../../src-main/server/browser-app';
import { REPO_ROOT } from '../support/app-under-test';

// Browser mode and the desktop app warm up once their page's first request is answered or the page
// has loaded (App.warmUp): runtime detection runs before any conversation exists, so the first model call does not wait for a process per language. A `ruby`
// first on PATH that leaves a mark when asked its version shows detection really ran, and when.

describe('app warm-up', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-warm-up-'));
  const bin = path.join(dir, 'bin');
  const mark = path.join(dir, 'ruby-was-asked');
  const originalPath = process.env.PATH;

  beforeAll(() => {
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'ruby'), `#!/bin/sh\ntouch '${mark}'\necho 'ruby 9.9.1 (warm-up test)'\n`);
    chmodSync(path.join(bin, 'ruby'), 0o755);
    process.env.PATH = `${bin}${path.delimiter}${originalPath ?? ''}`;
  });
  afterAll(() => {
    process.env.PATH = originalPath;
    rmSync(dir, { recursive: true, force: true });
  });

  it('detects the runtimes before any conversation is opened, once the first request is answered', async () => {
    const app = createApp({
      dataDir: path.join(dir, 'data'),
      settings: new MemorySettingsStore({}),
      secrets: new MemorySecretStore(),
      resourcesDir: path.join(REPO_ROOT, 'resources'),
      version: 'test',
      env: {},
    });
    try {
      // Building the app asks no program anything (oi's first request must not compete with it), and
      // neither does a request answered by the bare handlers.
      await app.handlers['app.info']({}, { transport: 'websocket' });
      expect(existsSync(mark)).toBe(false);

      // Browser mode's dispatcher warms up once it has answered the page's first request.
      const dispatch = warmingDispatcher(app);
      expect(await dispatch('app.info', {}, { transport: 'websocket' })).toMatchObject({ ok: true });
      await expect.poll(() => existsSync(mark), { timeout: 30_000 }).toBe(true);
    } finally {
      await app.dispose();
    }
  });
});
