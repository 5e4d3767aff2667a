import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

export const appHandlers = (ctx: AppContext): Pick<HandlerTable, 'app.info'> => ({
  'app.info': async (_input, req) => ({
    version: ctx.version,
    platform: process.platform,
    transport: req.transport,
    secretStorage: ctx.secretStorage,
    notices: ctx.notices,
  }),
});
