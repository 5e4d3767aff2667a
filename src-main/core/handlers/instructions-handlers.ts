import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { InstructionsState } from '@contract';
import { INSTRUCTION_FILE_BYTES, loadInstructions, prefixWithin, type InstructionSources } from '../agent/project-instructions';
import { HOOKS_FILE_BYTES, workspaceHooksFile } from '../hooks/hook-config';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type InstructionHandlers = Pick<HandlerTable, 'instructions.list' | 'instructions.read' | 'instructions.trust'>;

/**
 * AGENTS.md in effect for a conversation (docs/agent.md#project-instructions), and trusting its folder.
 * The workspace's hooks file is listed too (its commands would run as the person), so a folder with
 * hooks alone is offered for trust, and its text can be read first.
 */
export const instructionsHandlers = (ctx: Pick<AppContext, 'agent' | 'settings' | 'dataDir'>): InstructionHandlers => {
  const sources: InstructionSources = {
    userFile: path.join(ctx.dataDir, 'AGENTS.md'),
    trusted: () => ctx.settings.get().trustedFolders,
  };
  const state = async (conversationId: string): Promise<InstructionsState> => {
    const { workspace } = await ctx.agent.snapshot(conversationId);
    const { files, trustFolder, trusted } = await loadInstructions(workspace, sources);
    const hooks = await workspaceHooksFile(workspace);
    return { files, trustFolder, trusted, hooksFile: hooks && { path: hooks.path, used: trusted } };
  };
  return {
    'instructions.list': async ({ conversationId }) => state(conversationId),
    'instructions.read': async ({ conversationId, path: wanted }) => {
      const { workspace } = await ctx.agent.snapshot(conversationId);
      const hooks = await workspaceHooksFile(workspace);
      if (hooks && hooks.path === wanted) {
        const cut = Buffer.byteLength(hooks.text, 'utf8') > HOOKS_FILE_BYTES;
        return { text: cut ? prefixWithin(hooks.text, HOOKS_FILE_BYTES) : hooks.text, cut };
      }
      // Only a file the list names: this request never reads another path.
      const file = (await loadInstructions(workspace, sources)).texts.find((f) => f.path === wanted);
      if (!file) throw new Error(`"${wanted}" is not one of this conversation's instruction files`);
      const cut = Buffer.byteLength(file.text, 'utf8') > INSTRUCTION_FILE_BYTES;
      return { text: cut ? prefixWithin(file.text, INSTRUCTION_FILE_BYTES) : file.text, cut };
    },
    'instructions.trust': async ({ conversationId }) => {
      const { workspace } = await ctx.agent.snapshot(conversationId);
      const { trustFolder } = await loadInstructions(workspace, sources);
      const real = await realpath(trustFolder);
      const now = ctx.settings.get().trustedFolders;
      if (!now.includes(real)) ctx.settings.update({ trustedFolders: [...now, real] });
      return state(conversationId);
    },
  };
};
