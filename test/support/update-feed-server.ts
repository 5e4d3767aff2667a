import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type RequestOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor';

// A generic update feed (latest-linux.yml and an installer, as electron-builder publishes them) served
// by a local HTTP server, and electron-updater's own .deb updater pointed at it under Node: the
// Electron binary cannot run here, so the app is described by an AppAdapter (what Electron's app would
// say) and requests go through Node's http instead of Electron's net. The feed parsing, the version
// comparison, the download and its sha512 check stay electron-updater's own
// (test/integration/update-feed.test.ts, test/e2e/ui-updates.e2e.test.ts).

/**
 * electron-updater's own HTTP executor (its downloads, its checksum transform) with the one part that
 * needs Electron, the request itself (Electron's net module), made with Node's http instead.
 */
class NodeHttpExecutor extends ElectronHttpExecutor {
  override createRequest(
    options: RequestOptions,
    callback: (response: IncomingMessage) => void,
  ): ReturnType<ElectronHttpExecutor['createRequest']> {
    // Node's request has what the executor uses of Electron's (write, end, abort, the response events).
    return http.request(options, callback) as unknown as ReturnType<ElectronHttpExecutor['createRequest']>;
  }
}

/** The version the updaters say is installed. */
export const CURRENT = '0.1.0';
export const INSTALLER = Buffer.from('a .deb of the next version, for the test');
export const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** A path the feed never answers. */
export const HANG = Symbol('hang');

export interface FeedServer {
  /** What the feed serves, by path. */
  feed: Map<string, string | Buffer | typeof HANG>;
  /** Paths asked for, in order. */
  requested: string[];
  baseUrl: string;
  /** Publishes `version` (its installer and latest-linux.yml), replacing what was there. */
  publish(version: string, opts?: { sha512?: string; notes?: string }): void;
  /** electron-updater's .deb updater for an installed CURRENT whose resources folder (dir) names this feed. */
  newUpdater(): { updater: DebUpdater; dir: string };
  close(): void;
}

export async function startFeedServer(): Promise<FeedServer> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'oi-update-feed-'));
  const feed: FeedServer['feed'] = new Map();
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0] ?? '';
    requested.push(url);
    const body = feed.get(url);
    if (body === HANG) return; // never answered
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    feed,
    requested,
    baseUrl,
    publish(version, opts = {}) {
      feed.clear();
      const file = `open-interpreter-desktop_${version}_amd64.deb`;
      feed.set(`/${file}`, INSTALLER);
      const checksum = opts.sha512 ?? sha512(INSTALLER);
      feed.set(
        '/latest-linux.yml',
        [
          `version: ${version}`,
          'files:',
          `  - url: ${file}`,
          `    sha512: ${checksum}`,
          `    size: ${INSTALLER.length}`,
          `path: ${file}`,
          `sha512: ${checksum}`,
          `releaseDate: '2026-12-05T12:00:00.000Z'`,
          `releaseNotes: ${JSON.stringify(opts.notes ?? `What is new in ${version}`)}`,
          '',
        ].join('\n'),
      );
    },
    newUpdater() {
      const dir = mkdtempSync(path.join(work, 'app-'));
      const configPath = path.join(dir, 'app-update.yml');
      writeFileSync(configPath, `provider: generic\nurl: ${baseUrl}\nupdaterCacheDirName: oi-update-test\n`);
      const adapter: AppAdapter = {
        version: CURRENT,
        name: 'open-interpreter-desktop',
        isPackaged: true,
        appUpdateConfigPath: configPath,
        userDataPath: dir,
        baseCachePath: dir,
        whenReady: () => Promise.resolve(),
        relaunch: () => undefined,
        quit: () => undefined,
        onQuit: () => undefined,
      };
      const updater = new DebUpdater(null, adapter);
      updater.logger = null;
      (updater as unknown as { httpExecutor: ElectronHttpExecutor }).httpExecutor = new NodeHttpExecutor();
      return { updater, dir };
    },
    close() {
      server.closeAllConnections();
      server.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
