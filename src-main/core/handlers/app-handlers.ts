import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

/** `warmUp`: App.warmUp, started when the page says it is usable. */
export const appHandlers = (ctx: AppContext, warmUp: () => void): Pick<HandlerTable, 'app.info' | 'app.ready'> => ({
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
});
