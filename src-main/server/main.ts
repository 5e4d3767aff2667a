import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultAppDataDir } from '../core/app-data-dir';
import { createApp } from '../core/app';
import { createDispatcher } from '../core/bridge/dispatch';
import { openSecretStore } from '../core/secrets/open-secret-store';
import { openNodeSettingsStore } from '../core/settings/node-settings-store';
import { workspaceLookup } from '../core/workspace/workspace-lookup';
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
    console.error(`refusing to listen on ${host}: browser mode serves only this machine (127.0.0.1). Pass --allow-remote to override, at your own risk.`);
    process.exit(2);
  }
  if (!isLoopback(host)) console.warn(`WARNING: listening on ${host}; anyone who can reach it and has the token can run code on this machine.`);
  const port = values.port ? Number(values.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, got ${values.port}`);
    process.exit(2);
  }
  const dataDir = path.resolve(values['data-dir'] ?? defaultAppDataDir());
  mkdirSync(dataDir, { recursive: true });

  const settings = openNodeSettingsStore({ dir: dataDir });
  if (settings.notice) console.warn(settings.notice);
  const secrets = await openSecretStore();
  if (secrets.reason) console.warn(`No OS keychain: ${secrets.reason}`);
  const app = createApp({
    dataDir,
    settings,
    secrets: secrets.store,
    notices: secrets.notice ? [secrets.notice] : [],
    resourcesDir: path.join(repoRoot, 'resources'),
    version: process.env.npm_package_version ?? '0.0.0',
  });
  const server = await startBrowserServer({
    dispatch: createDispatcher(app.handlers),
    events: app.events,
    rendererDir: path.resolve(values.renderer ?? path.join(repoRoot, 'out', 'renderer')),
    port,
    host,
    workspaceOf: workspaceLookup(app.context.agent),
  });
  console.log(`Open Interpreter Desktop (browser mode) is at:\n  ${server.launchUrl}`);
  const shutdown = async () => {
    await server.close();
    await app.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

void main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
