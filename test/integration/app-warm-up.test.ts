import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';

// Browser mode and the desktop app warm up once their page says it is usable (`app.ready`, App.warmUp):
// runtime detection runs before any conversation exists, so the first model call does not wait for a
// process per language, and not while the page loads, which it would compete with. A `ruby` first on
// PATH that leaves a mark when asked its version shows detection really ran, and when.

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

  it('detects the runtimes before any conversation is opened, once the page says it is usable', async () => {
    const app = createTestApp({
      dataDir: path.join(dir, 'data'),
      settings: new MemorySettingsStore({}),
      secrets: new MemorySecretStore(),
    });
    try {
      // Building the app asks no program anything (oi's first request must not compete with it), and
      // neither does a request answered by the bare handlers.
      await app.handlers['app.info']({}, { transport: 'websocket' });
      expect(existsSync(mark)).toBe(false);

      // The page's first requests, through the dispatcher both transports use, do not start it either.
      const dispatch = createDispatcher(app.handlers);
      for (const name of ['settings.get', 'app.info', 'providers.status', 'conversation.list'] as const)
        expect(await dispatch(name, {}, { transport: 'websocket' })).toMatchObject({ ok: true });
      expect(existsSync(mark)).toBe(false);
      // The page is usable: the app warms up.
      expect(await dispatch('app.ready', {}, { transport: 'websocket' })).toEqual({ ok: true, result: { ok: true } });
      await expect.poll(() => existsSync(mark), { timeout: 30_000 }).toBe(true);
    } finally {
      await app.dispose();
    }
  });
});
