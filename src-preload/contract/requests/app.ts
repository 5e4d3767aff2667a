import { z } from 'zod';
import { Empty, Ok, type RequestSpec } from './shared';

/** The desktop app's updates (src-main/electron/update-feed.ts): what Settings → Updates shows. */
export const UpdateStatus = z.object({
  /** Whether this build has an update feed: only the desktop app's release builds (docs/release.md). */
  available: z.boolean(),
  phase: z.enum(['idle', 'checking', 'up-to-date', 'downloading', 'ready', 'failed']),
  currentVersion: z.string(),
  /** The newer version found, downloading or ready to install when the app quits. */
  version: z.string().nullable(),
  releaseNotes: z.string().nullable(),
  error: z.string().nullable(),
  /** When the last check ended, ms since the epoch. */
  checkedAt: z.number().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

export const appRequests = {
  'app.info': {
    input: Empty,
    output: z.object({
      version: z.string(),
      platform: z.string(),
      transport: z.enum(['ipc', 'websocket', 'cli']),
      /** Where keys are kept: the OS keychain, or memory for this run only when none is reachable. */
      secretStorage: z.enum(['keychain', 'memory']),
      /** Things the user must know from start-up (settings reset, no keychain…). */
      notices: z.array(z.string()),
    }),
  },
  /**
   * The page is usable (its state loaded, the window drawn): the app starts its warm-up now
   * (App.warmUp), which before would have competed with the page for the machine. Repeats do nothing.
   */
  'app.ready': { input: Empty, output: Ok },
  /** Where the updates stand (a build without a feed: available false). */
  'app.updates': { input: Empty, output: UpdateStatus },
  /** "Check now": checks the feed whatever the switch, downloads a newer version; answers when done. */
  'app.check-updates': { input: Empty, output: UpdateStatus },
} as const satisfies Record<string, RequestSpec>;
