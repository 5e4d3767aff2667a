import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererResponse } from '../../src-main/electron/renderer-response';
import { RENDERER_DIR } from '../support/app-under-test';

// The desktop app serves the renderer from app://renderer (electron/renderer-response.ts, which the
// shell hands to protocol.handle). The renderer is split into chunks loaded on demand
// (electron.vite.config.ts), so every file of out/renderer/assets must come back through it as
// JavaScript (or CSS) under the page's CSP, at the URL the entry and the chunks name it by.

const fetchApp = (url: string): Promise<Response> => rendererResponse(RENDERER_DIR, url);

describe('app://renderer serves every chunk of the built renderer', () => {
  const assets = path.join(RENDERER_DIR, 'assets');

  it('answers each asset with its type and the page’s CSP', async () => {
    const files = readdirSync(assets).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(5);
    for (const file of files) {
      const response = await fetchApp(`app://renderer/assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe(
        file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(response.headers.get('content-security-policy'), file).toMatch(/script-src 'self'(;|$)/);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(assets, file))), file).toBe(true);
    }
  });

  it('resolves the URLs the page and the chunks name them by inside app://renderer', async () => {
    const html = await (await fetchApp('app://renderer/')).text();
    const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
    expect(entry).toMatch(/^\.\/assets\/index-[\w-]+\.js$/);
    const entryUrl = new URL(entry ?? '', 'app://renderer/index.html');
    expect(entryUrl.href.startsWith('app://renderer/assets/')).toBe(true);
    // Every chunk another chunk names (static or dynamic import, or a preload list), relative to it.
    const named = new Set<string>();
    for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(path.join(assets, file), 'utf8');
      for (const m of text.matchAll(/["'`](\.\.?\/[\w./-]+\.(?:js|css))["'`]/g))
        named.add(new URL(m[1] ?? '', `app://renderer/assets/${file}`).href);
      for (const m of text.matchAll(/["'`](assets\/[\w.-]+\.(?:js|css))["'`]/g)) named.add(new URL(m[1] ?? '', 'app://renderer/').href);
    }
    expect(named.size).toBeGreaterThan(5);
    for (const url of named) {
      expect(url.startsWith('app://renderer/assets/'), url).toBe(true);
      expect((await fetchApp(url)).status, url).toBe(200);
    }
  });
});
