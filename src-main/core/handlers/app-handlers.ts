import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

/** `warmUp`: App.warmUp, started when the page says it is usable. */
/**
 * Browser mode and the CLI have no updates of their own (they run the installed package); the desktop
 * shell replaces both update requests with its feed's (src-main/electron/updates.ts).
 */
const noFeed = (ctx: AppContext) => async () => ({
  available: false,
  phase: 'idle' as const,
  currentVersion: ctx.version,
  version: null,
  releaseNotes: null,
  error: null,
  checkedAt: null,
});

export const appHandlers = (
  ctx: AppContext,
  warmUp: () => void,
): Pick<HandlerTable, 'app.info' | 'app.ready' | 'app.updates' | 'app.check-updates'> => ({
  'app.info': async (_input, req) => ({
    version: ctx.version,
    platform: process.platform,
    transport: req.transport,
    secretStorage: ctx.secretStorage,
    notices: ctx.notices,
  }),
  'app.ready': async () => {
    warmUp();
    return { ok: true };
  },
  'app.updates': noFeed(ctx),
  'app.check-updates': noFeed(ctx),
});
