import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { LOAD_SKILL, READ_SKILL_FILE } from '../../llm/skill-tools';
import { readBeneath } from '../../fs/bounded-read';
import { checkName, holdFolder, NoFollowError } from '../../fs/no-follow-open';
import { parseMcpArgs } from '../mcp-cell';
import { prefixWithin } from '../project-instructions';
import { offeredSkills, SKILL_FILE_BYTES, type FoundSkill } from './skill-discovery';

// What the skill tools do (docs/agent.md#skills). Only a skill the model is offered can be loaded —
// the person's own, or a workspace's once its folder is trusted — so asking for a stranger's skill by
// a guessed name gets "no such skill", never its text. A further file is read only inside that skill's
// folder, one path component at a time, never through a link, bounded.

/** Bytes of one further file given to the model. */
export const SKILL_RESOURCE_BYTES = 64 * 1024;
/** Files listed when a skill is loaded. */
const LISTED_FILES = 100;
const LIST_DEPTH = 4;

export interface SkillCallResult {
  ok: boolean;
  /** What the model reads. */
  forModel: string;
  /** The skill it concerned, when the arguments named one that exists (for what the person sees). */
  skill: string | null;
}

export async function runSkillCall(tool: string, argsJson: string, skills: readonly FoundSkill[]): Promise<SkillCallResult> {
  const args = parseMcpArgs(argsJson);
  if (!args.ok) return fail(`Error: ${args.error}`);
  const name = args.value.name;
  if (typeof name !== 'string') return fail('Error: "name" must be the skill’s name, as a string');
  const offered = offeredSkills(skills);
  const skill = offered.find((s) => s.name === name);
  if (!skill) {
    const names = offered.map((s) => `"${s.name}"`).join(', ');
    return fail(`Error: there is no skill called ${JSON.stringify(name)}; ${names ? `the skills are ${names}` : 'no skills are offered'}`);
  }
  if (tool === LOAD_SKILL) return { ok: true, forModel: await loadText(skill), skill: skill.name };
  if (tool === READ_SKILL_FILE) {
    const wanted = args.value.path;
    if (typeof wanted !== 'string' || wanted.trim() === '')
      return fail('Error: "path" must be a file’s path inside the skill’s folder', skill);
    return readResource(skill, wanted);
  }
  return fail(`Error: ${tool} is not a skill tool`);
}

const fail = (forModel: string, skill?: FoundSkill): SkillCallResult => ({ ok: false, forModel, skill: skill?.name ?? null });

async function loadText(skill: FoundSkill): Promise<string> {
  const files = await listFiles(skill);
  return [
    `Skill "${skill.name}" — its folder is ${skill.folder}`,
    `Run its scripts with the execute tool by their full path (for example python3 ${path.join(skill.folder, 'scripts', '<script>')}); read its other files with ${READ_SKILL_FILE}.`,
    `Files: ${files.length > 0 ? files.join(', ') : '(SKILL.md only)'}`,
    '',
    skill.body,
    ...(skill.cut ? [`[… cut here: SKILL.md is longer than the ${SKILL_FILE_BYTES / 1024} KB the app reads]`] : []),
  ].join('\n');
}

async function readResource(skill: FoundSkill, wanted: string): Promise<SkillCallResult> {
  const parts = wanted.split(/[/\\]+/).filter((p) => p !== '' && p !== '.');
  try {
    if (parts.length === 0) throw new NoFollowError('no file named', 'bad-name');
    for (const part of parts) checkName(part);
  } catch {
    return fail(`Error: ${JSON.stringify(wanted)} is not a path inside the skill’s folder (no "..", no absolute paths)`, skill);
  }
  const read = await readBeneath(skill.root, [...skill.base, ...parts], SKILL_RESOURCE_BYTES);
  if (!read.ok) {
    const why = read.why === 'missing' ? 'there is no such file in the skill’s folder' : read.message;
    return fail(`Error: ${wanted} cannot be read: ${why}`, skill);
  }
  const shown = path.join(skill.folder, ...parts);
  if (read.bytes.includes(0))
    return { ok: true, forModel: `${shown} is a binary file (${read.size} bytes); use it from code by that path.`, skill: skill.name };
  const text = read.bytes.toString('utf8');
  const cut = read.bytes.length > SKILL_RESOURCE_BYTES;
  const body = cut
    ? `${prefixWithin(text, SKILL_RESOURCE_BYTES)}\n[… cut here: the file is longer than the ${SKILL_RESOURCE_BYTES / 1024} KB the app gives it]`
    : text;
  return { ok: true, forModel: `${shown}:\n${body}`, skill: skill.name };
}

/** The skill's files by relative path, without following a link (a link is named as one, never entered). */
async function listFiles(skill: FoundSkill): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string[]): Promise<void> => {
    if (out.length >= LISTED_FILES || relative.length >= LIST_DEPTH) return;
    let entries;
    try {
      const folder = await holdFolder(skill.root, [...skill.base, ...relative]);
      try {
        entries = await readdir(folder.self, { withFileTypes: true });
      } finally {
        await folder.close();
      }
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= LISTED_FILES) return;
      const shown = [...relative, entry.name].join('/');
      if (entry.isSymbolicLink()) out.push(`${shown} (a link, not followed)`);
      else if (entry.isDirectory()) await walk([...relative, entry.name]);
      else if (shown !== 'SKILL.md') out.push(shown);
    }
  };
  await walk([]);
  return out;
}
