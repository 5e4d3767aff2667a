import { summaryOf } from '../agent/agent-service';
import type { HandlerTable } from '../bridge/handler-table';
import { toLmcMessages } from '../conversations/lmc-export';
import { parseConversationFile } from '../conversations/lmc-import';
import { checkWorkspaceFolder } from '../workspace/workspace-folder';
import type { AppContext } from './app-context';
import { conversationWorkspaceHandlers } from './conversation-workspace-handlers';

type ConversationNames =
  | 'conversation.create'
  | 'conversation.list'
  | 'conversation.get'
  | 'conversation.rename'
  | 'conversation.delete'
  | 'conversation.set-workspace'
  | 'conversation.workspace-info'
  | 'conversation.pick-folder'
  | 'conversation.undo'
  | 'conversation.import'
  | 'conversation.export-lmc'
  | 'conversation.set-model'
  | 'conversation.set-agent';

export const conversationHandlers = (ctx: AppContext): Pick<HandlerTable, ConversationNames> => ({
  'conversation.create': async ({ title, workspace }) => {
    const folder = workspace === undefined ? undefined : await checkWorkspaceFolder(workspace, ctx);
    const conv = await ctx.conversations.create(title, [], folder);
    ctx.events.emit('conversation.updated', { summary: summaryOf(conv) });
    return conv;
  },
  'conversation.list': async ({ query }) => ctx.conversations.list(query),
  'conversation.get': async ({ conversationId }) => ctx.agent.snapshot(conversationId),
  'conversation.rename': async ({ conversationId, title }) => ctx.agent.rename(conversationId, title),
  'conversation.undo': async ({ conversationId }) => ctx.agent.undoLastTurn(conversationId),
  'conversation.import': async ({ json, title }) => {
    const imported = parseConversationFile(json);
    const firstUser = imported.items.find((i) => i.kind === 'user');
    const name =
      title?.trim() ||
      imported.title ||
      (firstUser?.kind === 'user' ? firstUser.text.replace(/\s+/g, ' ').trim().slice(0, 80) : '') ||
      'Imported conversation';
    const conv = await ctx.conversations.create(name, imported.items);
    ctx.events.emit('conversation.updated', { summary: summaryOf(conv) });
    return conv;
  },
  'conversation.export-lmc': async ({ conversationId }) => ({
    json: `${JSON.stringify(toLmcMessages(await ctx.agent.snapshot(conversationId)), null, 2)}\n`,
  }),
  'conversation.set-model': async ({ conversationId, choice }) => ctx.agent.setModel(conversationId, choice),
  'conversation.set-agent': async ({ conversationId, agent }) => {
    if (agent !== null && !ctx.settings.get().agents[agent]) throw new Error(`no agent named "${agent}" in Settings → Agents`);
    return ctx.agent.setHostedAgent(conversationId, agent);
  },
  ...conversationWorkspaceHandlers(ctx),
});
