import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import electronUpdater from 'electron-updater';
import { errorMessage } from '@contract';
import { CHECK_INTERVAL_MS, UpdateFeed } from './update-feed';

// Updates in the desktop app (update-feed.ts holds the policy). Only a release build has a feed:
// electron-builder writes <resources>/app-update.yml when the release names one (`publish`, set by
// the release's build command, docs/release.md), and electron-updater reads its URL from there. A build
// someone made themselves (`npm run dist`) has none and never checks.

const LAST_CHECK_FILE = 'update-last-check.json';

function lastCheckedAt(dataDir: string): number | null {
  try {
    const { checkedAt } = JSON.parse(readFileSync(path.join(dataDir, LAST_CHECK_FILE), 'utf8')) as { checkedAt?: unknown };
    return typeof checkedAt === 'number' ? checkedAt : null;
  } catch {
    return null;
  }
}

/** Starts the daily background check; null when this build has no feed. */
export function startUpdates(options: { isPackaged: boolean; resourcesPath: string; dataDir: string }): UpdateFeed | null {
  if (!options.isPackaged || !existsSync(path.join(options.resourcesPath, 'app-update.yml'))) return null;
  // electron-updater is CommonJS and defines autoUpdater with a getter that builds the updater:
  // ESM's named-import detection cannot see it (a named import fails as the packaged main loads,
  // test/integration/packaging), and reading it builds the updater, so only here, for a release build.
  const feed = new UpdateFeed(electronUpdater.autoUpdater, {
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
    if (feed.due(lastCheckedAt(options.dataDir))) void feed.check();
  };
  checkIfDue();
  // The app may run for days: look again every hour whether a day has passed.
  setInterval(checkIfDue, Math.min(CHECK_INTERVAL_MS, 60 * 60 * 1000)).unref();
  return feed;
}
