import type { AppUpdater, UpdateInfo } from 'electron-updater';
import { errorMessage } from '@contract';

// The app's updates: electron-updater against a generic feed (a folder of latest*.yml and installers
// the project publishes, docs/release.md). This is the policy around it — when to check, how long to
// wait, what the person is shown — kept apart from Electron (updates.ts wires it) so the feed and the
// verification run under Node in test/integration/update-feed.test.ts against a local feed server.

/** At most one background check a day; "Check now" asks at any time. */
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;

export type UpdatePhase = 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed';

export interface UpdateState {
  phase: UpdatePhase;
  currentVersion: string;
  /** The newer version found (downloading or ready). */
  version: string | null;
  /** Its release notes as the feed gives them, shown before the person restarts. */
  releaseNotes: string | null;
  /** Why the last check or download failed: a feed that did not answer, a checksum that did not match… */
  error: string | null;
  /** When the last check finished (ms since the epoch), for the daily rhythm. */
  checkedAt: number | null;
}

export interface UpdateFeedOptions {
  /** How long the feed may take to answer a check before it counts as failed. */
  checkTimeoutMs: number;
  /** How long the download may take. */
  downloadTimeoutMs: number;
  now?: () => number;
  onState?: (state: UpdateState) => void;
}

function notesOf(info: UpdateInfo): string | null {
  const notes = info.releaseNotes;
  if (typeof notes === 'string') return notes;
  if (Array.isArray(notes)) return notes.map((n) => `${n.version}: ${n.note ?? ''}`).join('\n');
  return null;
}

/** Settles with `promise`, or rejects with `message` after `ms`: a feed that hangs must not hang the state. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class UpdateFeed {
  private current: UpdateState;
  private running: Promise<UpdateState> | null = null;

  constructor(
    private readonly updater: AppUpdater,
    private readonly options: UpdateFeedOptions,
  ) {
    // Download what the check finds, verify it (electron-updater checks the sha512 the feed names),
    // and install it when the app quits; never go back to an older version.
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.allowDowngrade = false;
    updater.allowPrerelease = false;
    this.current = {
      phase: 'idle',
      // A semver SemVer, whose toString is the version.
      currentVersion: String(updater.currentVersion as unknown),
      version: null,
      releaseNotes: null,
      error: null,
      checkedAt: null,
    };
  }

  get state(): UpdateState {
    return this.current;
  }

  /** Whether a background check is due: never checked, or the last one a day ago or more. */
  due(lastCheckedAt: number | null): boolean {
    const now = (this.options.now ?? Date.now)();
    return lastCheckedAt === null || now - lastCheckedAt >= CHECK_INTERVAL_MS;
  }

  /** Checks the feed and downloads a newer version; one check at a time. Never rejects: the state says. */
  check(): Promise<UpdateState> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private set(patch: Partial<UpdateState>): UpdateState {
    this.current = { ...this.current, ...patch };
    this.options.onState?.(this.current);
    return this.current;
  }

  private async run(): Promise<UpdateState> {
    if (this.current.phase === 'ready') return this.current;
    this.set({ phase: 'checking', error: null });
    const now = this.options.now ?? Date.now;
    try {
      const seconds = Math.round(this.options.checkTimeoutMs / 1000);
      const result = await within(
        this.updater.checkForUpdates(),
        this.options.checkTimeoutMs,
        `the update feed did not answer within ${seconds} s`,
      );
      if (!result?.isUpdateAvailable || !result.downloadPromise) return this.set({ phase: 'up-to-date', checkedAt: now() });
      const { version } = result.updateInfo;
      this.set({ phase: 'downloading', version, releaseNotes: notesOf(result.updateInfo), checkedAt: now() });
      const minutes = Math.round(this.options.downloadTimeoutMs / 60_000);
      await within(
        result.downloadPromise,
        this.options.downloadTimeoutMs,
        `the download of ${version} did not finish within ${minutes} min`,
      );
      return this.set({ phase: 'ready' });
    } catch (err) {
      return this.set({ phase: 'failed', error: errorMessage(err), checkedAt: now() });
    }
  }
}
