import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import electronUpdater, { type AppUpdater } from 'electron-updater';
import { errorMessage, type UpdateStatus } from '@contract';
import type { HandlerTable } from '../core/bridge/handler-table';
import { CHECK_INTERVAL_MS, UpdateFeed, type UpdateState } from './update-feed';

// Updates in the desktop app (update-feed.ts holds the policy). Only a release build has a feed:
// electron-builder writes <resources>/app-update.yml when the release names one (`publish`, set by
// the release's build command, docs/release.md), and electron-updater reads its URL from there. A build
// someone made themselves (`npm run dist`) has none and never checks. In a release build the background
// check follows Settings → Updates (`settings.updates`), read at each look; "Check now" asks at any time.

const LAST_CHECK_FILE = 'update-last-check.json';

function lastCheckedAt(dataDir: string): number | null {
  try {
    const { checkedAt } = JSON.parse(readFileSync(path.join(dataDir, LAST_CHECK_FILE), 'utf8')) as { checkedAt?: unknown };
    return typeof checkedAt === 'number' ? checkedAt : null;
  } catch {
    return null;
  }
}

export interface UpdatesOptions {
  isPackaged: boolean;
  resourcesPath: string;
  dataDir: string;
  /** Settings → Updates, read at each background look. */
  enabled: () => boolean;
  /** The updater; electron-updater's own unless a test gives one that runs under Node. */
  updater?: () => AppUpdater;
}

/** Starts the daily background check; null when this build has no feed. */
export function startUpdates(options: UpdatesOptions): UpdateFeed | null {
  if (!options.isPackaged || !existsSync(path.join(options.resourcesPath, 'app-update.yml'))) return null;
  // electron-updater is CommonJS and defines autoUpdater with a getter that builds the updater:
  // ESM's named-import detection cannot see it (a named import fails as the packaged main loads,
  // test/integration/packaging), and reading it builds the updater, so only here, for a release build.
  const updater = options.updater?.() ?? electronUpdater.autoUpdater;
  const feed = new UpdateFeed(updater, {
    checkTimeoutMs: 60_000,
    downloadTimeoutMs: 30 * 60_000,
    onState: (state) => {
      if (state.checkedAt === null) return;
      try {
        writeFileSync(path.join(options.dataDir, LAST_CHECK_FILE), JSON.stringify({ checkedAt: state.checkedAt }));
      } catch (err) {
        console.warn(`could not record the update check: ${errorMessage(err)}`);
      }
    },
  });
  const checkIfDue = () => {
    if (options.enabled() && feed.due(lastCheckedAt(options.dataDir))) void feed.check();
  };
  checkIfDue();
  // The app may run for days: look again every hour whether a day has passed.
  setInterval(checkIfDue, Math.min(CHECK_INTERVAL_MS, 60 * 60 * 1000)).unref();
  return feed;
}

function status(feed: UpdateFeed | null, version: string): UpdateStatus {
  const state: UpdateState | null = feed?.state ?? null;
  if (!state)
    return { available: false, phase: 'idle', currentVersion: version, version: null, releaseNotes: null, error: null, checkedAt: null };
  return { available: true, ...state };
}

/** Settings → Updates' requests, answered by this build's feed (none: the core's "no feed" answer, shaped the same). */
export function updateHandlers(feed: UpdateFeed | null, version: string): Pick<HandlerTable, 'app.updates' | 'app.check-updates'> {
  return {
    'app.updates': async () => status(feed, version),
    'app.check-updates': async () => {
      await feed?.check();
      return status(feed, version);
    },
  };
}
