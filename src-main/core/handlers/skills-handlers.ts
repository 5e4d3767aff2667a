import path from 'node:path';
import { errorMessage, type SkillsState } from '@contract';
import { findSkills, skillInfo, userSkillsFolder, type SkillSources } from '../agent/skills/skill-discovery';
import { installSkill } from '../agent/skills/skill-install';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type SkillHandlers = Pick<HandlerTable, 'skills.list' | 'skills.install'>;

/**
 * Skills for Settings (docs/agent.md#skills): the person's, and a conversation's workspace's with
 * whether its folder is trusted. Trusting it is `instructions.trust`: one trust for AGENTS.md and skills.
 */
export const skillsHandlers = (ctx: Pick<AppContext, 'agent' | 'settings' | 'dataDir'>): SkillHandlers => {
  const sources: SkillSources = { dataDir: ctx.dataDir, trusted: () => ctx.settings.get().trustedFolders };
  const list = async (conversationId?: string): Promise<SkillsState> => {
    const workspace = conversationId ? (await ctx.agent.snapshot(conversationId)).workspace : null;
    const found = await findSkills(workspace, sources);
    return {
      skills: found.skills.map(skillInfo),
      userFolder: userSkillsFolder(ctx.dataDir),
      trustFolder: found.trustFolder,
      trusted: found.trusted,
    };
  };
  return {
    'skills.list': async ({ conversationId }) => list(conversationId),
    'skills.install': async ({ path: source }) => {
      const name = await installSkill(ctx.dataDir, path.resolve(source)).catch((err: unknown) => {
        throw new Error(`The skill was not installed: ${errorMessage(err)}`);
      });
      const installed = (await list()).skills.find(
        (s) => s.source === 'user' && s.folder === path.join(userSkillsFolder(ctx.dataDir), name),
      );
      if (!installed) throw new Error(`The skill "${name}" was copied but is not found in ${userSkillsFolder(ctx.dataDir)}`);
      return installed;
    },
  };
};
