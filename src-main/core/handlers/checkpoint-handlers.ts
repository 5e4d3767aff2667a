import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type CheckpointNames = 'checkpoints.list' | 'checkpoints.diff' | 'checkpoints.restore';

/** Every run reversible: what each cell changed, and rewinding the workspace to before any of them. */
export const checkpointHandlers = (ctx: AppContext): Pick<HandlerTable, CheckpointNames> => ({
  'checkpoints.list': ({ conversationId }) => ctx.checkpoints.list(conversationId),
  'checkpoints.diff': async ({ conversationId, cellId, wholeText }) => ({
    files: await ctx.checkpoints.diff(conversationId, cellId, wholeText ?? false),
  }),
  'checkpoints.restore': ({ conversationId, cellId, confirm, cutConversation }) => {
    if (ctx.reruns.isRunning(conversationId))
      throw new Error('cannot rewind while a notebook re-run uses this conversation: wait for it to finish');
    return ctx.agent.rewind(conversationId, cellId, { confirm: confirm ?? false, cut: cutConversation ?? false });
  },
});
