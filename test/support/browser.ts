import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserServer, type Download, type LaunchOptions } from 'playwright-core';
import { reportSharedCpu, runningTreeCpuByKind } from './file-cpu';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Debian's Chromium, driven by playwright-core (`npx playwright install` cannot download here); each
 * launch gets a fresh temporary profile. Its headless shell (`chromium-headless-shell`, the old
 * headless mode: the same Blink and V8 without the desktop browser around them) when installed, as
 * `.ci/run` does: measured side by side under load, a page of the app opened and made ready cost about
 * 1.1 CPU-seconds in it against 3.1 in the full browser (whose browser and GPU processes did most of
 * the difference), and the browser's start about 4 less — most of the end-to-end tests' CPU
 * (CONTRIBUTING.md, "Where the CPU goes"). OI_CHROMIUM names another.
 */
export const CHROMIUM_PATH = process.env.OI_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

const LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    '--no-sandbox', // CI runs as root, where Chromium's own sandbox cannot start
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // A new page first shows about:blank in a renderer of its own, and the app's URL then takes a second
    // one (the first, ~0.15 CPU-seconds, thrown away). With one renderer per context allowed, the app
    // is loaded into the first. Cross-site frames still get their own (site isolation holds over the
    // limit), and each context still its own: 0.9 CPU-seconds a page opened against 1.07 (CONTRIBUTING.md).
    '--renderer-process-limit=1',
  ],
};

/** The full browser, for what the headless shell lacks: it answers "denied" to notifications whatever is granted. */
export const FULL_CHROMIUM_PATH = process.env.OI_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A Chromium of the caller's own (the bench, the README screenshot, the notification test, which
 * needs the full browser: `executablePath`): tests share one (connectChromium).
 */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({ ...LAUNCH, executablePath });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/**
 * The test run's one Chromium, started by the first test file that asks for it (vitest's globalSetup,
 * test/support/global-chromium.ts, holds this broker): starting a Chromium costs about 2.5
 * CPU-seconds, and each end-to-end file started its own. Files connect to it over playwright's
 * WebSocket and each page gets a context of its own (a fresh profile: no cookies, storage or cache
 * shared between tests). A run without browser tests never starts it.
 */
export async function startChromiumBroker(): Promise<{ url: string; close(): Promise<void> }> {
  let server: Promise<BrowserServer> | null = null;
  const http = createServer((_req, res) => {
    server ??= chromium.launchServer(LAUNCH);
    server.then(
      (s) => res.end(s.wsEndpoint()),
      (err: unknown) => {
        res.statusCode = 500;
        res.end(`Chromium did not start: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`,
    async close() {
      http.close();
      const running = await server?.catch(() => null);
      const pid = running?.process().pid;
      // Beside the run's per-file list (test/support/file-cpu.ts), read while it still runs.
      if (pid !== undefined) {
        const parts = runningTreeCpuByKind(pid);
        const total = [...parts.values()].reduce((sum, seconds) => sum + seconds, 0);
        reportSharedCpu('the Chromium of the run’s end-to-end tests', total, parts);
      }
      await running?.close();
    },
  };
}

/** Connects to the run's Chromium (startChromiumBroker); close() disconnects and closes this connection's contexts. */
export async function connectChromium(brokerUrl: string): Promise<{ browser: Browser; close(): Promise<void> }> {
  const res = await fetch(brokerUrl);
  const text = await res.text();
  if (!res.ok) throw new Error(text);
  const browser = await chromium.connect(text);
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** A download's bytes (download.path() works only in a browser this process launched; a stream works in both). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
