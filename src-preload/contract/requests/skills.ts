import { z } from 'zod';
import { Id } from '../model';
import { type RequestSpec } from './shared';

// Agent Skills (docs/agent.md#skills): folders with a SKILL.md the person keeps in the data folder's
// skills/ folder, or a workspace keeps in .agents/skills/ (.claude/skills/). Listed in Settings with
// whether each reaches the model and, for a broken one, why not.

export const SkillInfo = z.object({
  /** The front matter's name (the folder's name when the front matter gives none usable). */
  name: z.string(),
  description: z.string(),
  /** The person's skills folder, or the workspace's `.agents/skills` / `.claude/skills`. */
  source: z.enum(['user', 'workspace']),
  /** The skill's folder, absolute. */
  folder: z.string(),
  /** Offered to the model: the person's own always, a workspace's once the person trusts its folder. */
  trusted: z.boolean(),
  /** Why the skill cannot be used (bad front matter, a link, too big…), or null. */
  broken: z.string().nullable(),
});

export const SkillsState = z.object({
  skills: z.array(SkillInfo),
  /** The person's skills folder (`<data folder>/skills`). */
  userFolder: z.string(),
  /** The folder whose trust lets the workspace's skills in (as for AGENTS.md); null without a conversation. */
  trustFolder: z.string().nullable(),
  trusted: z.boolean(),
});

export const skillsRequests = {
  /** The person's skills and, given a conversation, its workspace's. */
  'skills.list': { input: z.object({ conversationId: Id.optional() }).strict(), output: SkillsState },
  /** Copies a skill's folder (holding SKILL.md), or unpacks a .zip of one, into the person's skills folder; links, escaping names and too much are refused. */
  'skills.install': {
    input: z.object({ path: z.string().min(1).max(4096) }).strict(),
    output: SkillInfo,
  },
} as const satisfies Record<string, RequestSpec>;

export type SkillInfo = z.infer<typeof SkillInfo>;
export type SkillsState = z.infer<typeof SkillsState>;
