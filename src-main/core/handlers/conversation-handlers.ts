import { summaryOf } from '../agent/agent-service';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

export const conversationHandlers = (ctx: AppContext): Pick<HandlerTable, 'conversation.create' | 'conversation.list' | 'conversation.get'> => ({
  'conversation.create': async ({ title }) => {
    const conv = await ctx.conversations.create(title);
    ctx.events.emit('conversation.updated', { summary: summaryOf(conv) });
    return conv;
  },
  'conversation.list': async ({ query }) => ctx.conversations.list(query),
  'conversation.get': async ({ conversationId }) => ctx.agent.snapshot(conversationId),
});
