import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrowserApp, type BrowserApp } from '../../src-main/server/browser-app';
import { cliEnv, REPO, runOi, tempDir } from '../support/cli-process';

// Every entry point starts through core/start-app.ts: the version they report is package.json's,
// whichever way they were launched (browser mode once said "0.0.0" when not started by npm).

const packageVersion = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe('one start-up for every entry point', () => {
  let app: BrowserApp | null = null;
  let remove = (): void => undefined;
  afterEach(async () => {
    await app?.dispose();
    app = null;
    remove();
  });

  it("browser mode's app.info and `oi --version` both report package.json's version", async () => {
    expect(packageVersion).not.toBe('0.0.0');
    const data = tempDir('oi-start-');
    remove = data.remove;
    const saved = process.env.npm_package_version;
    // As when `node out/main/serve.js` is run directly, not through npm.
    delete process.env.npm_package_version;
    try {
      app = await openBrowserApp({ dataDir: data.dir });
    } finally {
      if (saved !== undefined) process.env.npm_package_version = saved;
    }
    const info = await app.dispatch('app.info', {}, { transport: 'websocket' });
    expect(info).toMatchObject({ ok: true, result: { version: packageVersion } });

    const { npm_package_version: _ignored, ...env } = cliEnv(data.dir);
    const oi = await runOi(['--version'], env);
    expect(oi.code).toBe(0);
    expect(oi.stdout.trim()).toBe(packageVersion);
  });
});
