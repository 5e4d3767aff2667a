import { expandCommand, findSavedCommands, usableCommand, userCommandsFolder, type CommandSources } from '../agent/saved-commands';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type CommandHandlers = Pick<HandlerTable, 'commands.list' | 'commands.expand'>;

/**
 * Saved commands for the composer's slash menu and oi (docs/agent.md#saved-commands): the person's,
 * and a conversation's workspace's once its folder is trusted (`instructions.trust`, one trust for
 * AGENTS.md, skills, hooks and commands). Files are read afresh on every request.
 */
export const commandsHandlers = (ctx: Pick<AppContext, 'agent' | 'settings' | 'dataDir'>): CommandHandlers => {
  const sources: CommandSources = { dataDir: ctx.dataDir, trusted: () => ctx.settings.get().trustedFolders };
  const find = async (conversationId?: string) =>
    findSavedCommands(conversationId ? (await ctx.agent.snapshot(conversationId)).workspace : null, sources);
  return {
    'commands.list': async ({ conversationId }) => {
      const found = await find(conversationId);
      return {
        commands: found.commands.map(({ body: _body, ...info }) => info),
        userFolder: userCommandsFolder(ctx.dataDir),
        trustFolder: found.trustFolder,
      };
    },
    'commands.expand': async ({ conversationId, name, arguments: typed }) => {
      const command = usableCommand(await find(conversationId), name);
      return command ? { text: expandCommand(command.body, typed), path: command.path } : { text: null, path: null };
    },
  };
};
