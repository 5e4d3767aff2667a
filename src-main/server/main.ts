import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { errorMessage } from '@contract/error-message';
import { defaultAppDataDir } from '../core/app-data-dir';
import { disposeBeforeExit } from '../core/dispose-before-exit';
import type { EventBus } from '../core/bridge/event-bus';
import type { BrowserApp } from './browser-app';
import { isLoopback, startBrowserServer } from './browser-server';

// `npm run serve`: the desktop app's renderer and contract in a browser, for machines without the
// Electron binary and for the end-to-end tests.

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-remote': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
    },
  });
  const host = values.host ?? '127.0.0.1';
  if (!isLoopback(host) && !values['allow-remote']) {
    console.error(
      `refusing to listen on ${host}: browser mode serves only this machine (127.0.0.1). Pass --allow-remote to override, at your own risk.`,
    );
    process.exit(2);
  }
  if (!isLoopback(host))
    console.warn(`WARNING: listening on ${host}; anyone who can reach it and has the token can run code on this machine.`);
  const port = values.port ? Number(values.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, got ${values.port}`);
    process.exit(2);
  }
  const dataDir = path.resolve(values['data-dir'] ?? defaultAppDataDir());
  mkdirSync(dataDir, { recursive: true });

  // The server listens and the URL is printed before the app is built: the page's files need no app,
  // and its first requests wait for it (bench/startup.bench.ts measures both moments).
  let build: (app: Promise<BrowserApp>) => void = () => undefined;
  const app = new Promise<BrowserApp>((resolve) => (build = resolve));
  const server = await startBrowserServer({
    dispatch: async (name, input, ctx) => (await app).dispatch(name, input, ctx),
    events: eventsOf(app),
    rendererDir: path.resolve(values.renderer ?? path.join(repoRoot, 'out', 'renderer')),
    port,
    host,
    workspaceOf: async (conversationId) => (await app).workspaceOf(conversationId),
  });
  app.catch(async (err: unknown) => {
    console.error(`browser mode could not start: ${errorMessage(err)}`);
    await server.close();
    process.exit(1);
  });
  console.log(`Open Interpreter Desktop (browser mode) is at:\n  ${server.launchUrl}`);
  build(import('./browser-app').then(({ openBrowserApp }) => openBrowserApp({ dataDir })));
  let stopping = false;
  const shutdown = async () => {
    // A second Ctrl-C (or SIGTERM) while closing: exit at once.
    if (stopping) process.exit(1);
    stopping = true;
    await server.close();
    await disposeBeforeExit(await app, (line) => console.error(`browser mode: ${line}`));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

/** The app's events for sockets that connect before it exists: their subscription starts once it does. */
function eventsOf(app: Promise<BrowserApp>): Pick<EventBus, 'subscribe'> {
  return {
    subscribe(listener) {
      let unsubscribe: (() => void) | null = null;
      let gone = false;
      app.then(
        (built) => {
          if (!gone) unsubscribe = built.events.subscribe(listener);
        },
        () => undefined,
      );
      return () => {
        gone = true;
        unsubscribe?.();
      };
    },
  };
}

void main().catch((err: unknown) => {
  console.error(errorMessage(err));
  process.exit(1);
});
