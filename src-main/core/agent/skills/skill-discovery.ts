import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SkillInfo } from '@contract';
import { readBeneath, type BoundedRead } from '../../fs/bounded-read';
import { holdFolder, NoFollowError } from '../../fs/no-follow-open';
import { workspaceTrust } from '../../workspace/workspace-trust';
import { parseSkillFile } from './skill-front-matter';

// Agent Skills (issue 28, item 2; docs/agent.md#skills): folders holding a SKILL.md whose front matter
// gives `name` and `description`, plus any scripts and resources. Found in the person's skills folder
// (`<data folder>/skills/*/`) and the workspace's `.agents/skills/*/` and `.claude/skills/*/` — looked
// for again before every model call, as AGENTS.md is, so a skill added or edited counts at once. Read
// like AGENTS.md: never through a link, never waiting on a FIFO, bounded. A workspace's skills are a
// stranger's text until the person trusts its folder (the same trust as its AGENTS.md): found and
// listed, but neither their names nor their bodies go to the model, and their files cannot be loaded.

/** Bytes of a SKILL.md read; a longer body is cut with a note to the model. */
export const SKILL_FILE_BYTES = 64 * 1024;
/** Skill folders looked at in one skills folder; more are listed as one broken entry. */
export const MAX_SKILLS_PER_FOLDER = 200;

/** A skill as found: what Settings lists, and where its files are opened from without following links. */
export interface FoundSkill extends SkillInfo {
  /** Its files are `root/base…/<relative path>`, each component opened without following a link. */
  root: string;
  base: string[];
  /** SKILL.md's text after the front matter (at most the cap), '' for a broken skill. */
  body: string;
  cut: boolean;
}

export interface SkillSources {
  /** The app's data folder, whose `skills/` holds the person's skills; null for none (tests). */
  dataDir: string | null;
  /** Real paths of folders the person trusts (settings.trustedFolders), shared with AGENTS.md. */
  trusted: () => readonly string[];
}

export interface FoundSkills {
  skills: FoundSkill[];
  /** The folder whose trust lets the workspace's skills in; null without a workspace. */
  trustFolder: string | null;
  trusted: boolean;
}

/** The skills folder inside the data folder. */
export const userSkillsFolder = (dataDir: string): string => path.join(dataDir, 'skills');

const WORKSPACE_PLACES = [
  ['.agents', 'skills'],
  ['.claude', 'skills'],
] as const;

export async function findSkills(workspace: string | null, sources: SkillSources): Promise<FoundSkills> {
  const found: FoundSkill[] = [];
  const trust = workspace === null ? null : await workspaceTrust(workspace, sources.trusted());
  const places = await Promise.all([
    sources.dataDir ? skillsIn(sources.dataDir, ['skills'], 'user', true) : [],
    ...(trust ? WORKSPACE_PLACES.map((place) => skillsIn(trust.real, place, 'workspace', trust.trusted)) : []),
  ]);
  for (const skills of places) found.push(...skills);
  const trustFolder = trust?.trustFolder ?? null;
  const trusted = trust?.trusted ?? false;
  // One name, one skill: the person's own wins over a workspace's (a repository cannot replace it),
  // then .agents over .claude.
  const seen = new Map<string, FoundSkill>();
  for (const skill of found) {
    if (skill.broken) continue;
    const first = seen.get(skill.name);
    if (first) markBroken(skill, `another skill is already called "${skill.name}" (${first.folder}), and that one is used`);
    else seen.set(skill.name, skill);
  }
  return { skills: found, trustFolder, trusted };
}

/** The skills the model is offered: found, not broken, and the person's own or from a trusted folder. */
export const offeredSkills = (skills: readonly FoundSkill[]): FoundSkill[] => skills.filter((s) => s.trusted && !s.broken);

async function skillsIn(root: string, segments: readonly string[], source: SkillInfo['source'], trusted: boolean): Promise<FoundSkill[]> {
  const where = path.join(root, ...segments);
  let held;
  try {
    held = await holdFolder(root, segments);
  } catch (err) {
    if (err instanceof NoFollowError) return [brokenSkill(where, root, segments, source, trusted, err.message)];
    return []; // no such folder: no skills there
  }
  try {
    const entries = await readdir(held.self, { withFileTypes: true });
    const folders = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).sort((a, b) => (a.name < b.name ? -1 : 1));
    // Read side by side, each inside the folder held open (two opens a skill, not one per component
    // from the root): this runs before every model call, and fifty skills one after another would be
    // fifty waits.
    const out = await Promise.all(
      folders.slice(0, MAX_SKILLS_PER_FOLDER).map(async (entry) => {
        const base = [...segments, entry.name];
        const folder = path.join(where, entry.name);
        if (entry.isSymbolicLink())
          return brokenSkill(folder, root, base, source, trusted, `${folder} is a symbolic link; the app does not follow links`);
        const read = await readBeneath(held.self, [entry.name, 'SKILL.md'], SKILL_FILE_BYTES);
        return skillFrom(read, { folder, root, base, source, trusted });
      }),
    );
    if (folders.length > MAX_SKILLS_PER_FOLDER) {
      const why = `${where} holds ${folders.length} folders; only the first ${MAX_SKILLS_PER_FOLDER} are looked at`;
      out.push(brokenSkill(where, root, segments, source, trusted, why));
    }
    return out;
  } finally {
    await held.close();
  }
}

interface Place {
  folder: string;
  root: string;
  base: string[];
  source: SkillInfo['source'];
  trusted: boolean;
}

function skillFrom(read: BoundedRead, { folder, root, base, source, trusted }: Place): FoundSkill {
  if (!read.ok) {
    const file = path.join(folder, 'SKILL.md');
    const why =
      read.why === 'missing'
        ? `${folder} has no SKILL.md`
        : read.why === 'link'
          ? `${file} is a symbolic link (or inside one); the app does not follow links`
          : read.why === 'not-a-file'
            ? `${file} is not a file`
            : `${file} cannot be read: ${read.message}`;
    return brokenSkill(folder, root, base, source, trusted, why);
  }
  const cut = read.bytes.length > SKILL_FILE_BYTES;
  const parsed = parseSkillFile((cut ? read.bytes.subarray(0, SKILL_FILE_BYTES) : read.bytes).toString('utf8'));
  if (!parsed.ok) return brokenSkill(folder, root, base, source, trusted, `SKILL.md: ${parsed.reason}`);
  return { name: parsed.name, description: parsed.description, source, folder, trusted, broken: null, root, base, body: parsed.body, cut };
}

function brokenSkill(
  folder: string,
  root: string,
  base: readonly string[],
  source: SkillInfo['source'],
  trusted: boolean,
  why: string,
): FoundSkill {
  return {
    name: path.basename(folder),
    description: '',
    source,
    folder,
    trusted,
    broken: why,
    root,
    base: [...base],
    body: '',
    cut: false,
  };
}

function markBroken(skill: FoundSkill, why: string): void {
  skill.broken = why;
  skill.body = '';
}

/** What Settings and the CLI show: no bodies, no file handles. */
export function skillInfo(skill: FoundSkill): SkillInfo {
  const { name, description, source, folder, trusted, broken } = skill;
  return { name, description, source, folder, trusted, broken };
}
