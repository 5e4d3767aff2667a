import { chmodSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryPromptSection, readMemory, saveNote } from '../../../src-main/core/agent/memory';
import { PromptFilesCache } from '../../../src-main/core/agent/prompt-files-cache';
import { loadInstructions, type InstructionSources } from '../../../src-main/core/agent/project-instructions';
import { findSkills } from '../../../src-main/core/agent/skills/skill-discovery';
import { skillsPromptSection } from '../../../src-main/core/agent/skills/skill-prompt';

// The instructions and memory sections are kept between model calls while their files stay the same
// (issue 37), and a change must still count at the very next call: an edit by a cell, a link put in a
// file's place (never followed), a folder trusted or no longer trusted. Real files.

describe('the prompt files kept between model calls', () => {
  let root: string;
  let workspace: string;
  let trusted: string[];
  let sources: InstructionSources;
  let reads: number;
  /** Everything written before now counts as settled, so only a change can make the cache read again. */
  const later = () => Date.now() + 1000;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-prompt-cache-')));
    workspace = path.join(root, 'ws');
    mkdirSync(workspace);
    trusted = [workspace];
    sources = { userFile: path.join(root, 'AGENTS.md'), trusted: () => trusted };
    reads = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const section = (cache: PromptFilesCache) =>
    cache.instructions(workspace, sources, async () => {
      reads++;
      return (await loadInstructions(workspace, sources)).prompt;
    });

  /** Rewrites a file in place, same size, until its ctime moves on: what a cell's edit leaves. */
  function rewriteInPlace(file: string, text: string): void {
    const before = lstatSync(file, { bigint: true });
    writeFileSync(file, text);
    while (lstatSync(file, { bigint: true }).ctimeNs === before.ctimeNs) chmodSync(file, 0o644);
  }

  it('reads nothing again while nothing changed, and a same-size edit by a cell counts at the next call', async () => {
    const cache = new PromptFilesCache(later);
    writeFileSync(path.join(workspace, 'AGENTS.md'), 'use tabs');
    expect(await section(cache)).toContain('use tabs');
    expect(await section(cache)).toContain('use tabs');
    expect(reads).toBe(1);
    rewriteInPlace(path.join(workspace, 'AGENTS.md'), 'use tics');
    expect(await section(cache)).toContain('use tics');
    writeFileSync(path.join(workspace, 'CLAUDE.md'), 'ignored while AGENTS.md is there');
    rmSync(path.join(workspace, 'AGENTS.md'));
    expect(await section(cache)).toContain('ignored while AGENTS.md is there');
    expect(reads).toBe(3);
  });

  it('a link put in the place of AGENTS.md is not followed, even where the file was kept', async () => {
    const cache = new PromptFilesCache(later);
    writeFileSync(path.join(workspace, 'AGENTS.md'), 'be brief');
    expect(await section(cache)).toContain('be brief');
    const secret = path.join(root, 'secret.txt');
    writeFileSync(secret, 'SECRET-KEY-123');
    rmSync(path.join(workspace, 'AGENTS.md'));
    symlinkSync(secret, path.join(workspace, 'AGENTS.md'));
    const after = await section(cache);
    expect(after).not.toContain('SECRET-KEY-123');
    expect(after).not.toContain('be brief');
  });

  it("a workspace's files reach the model only while its folder is trusted, from the next call", async () => {
    const cache = new PromptFilesCache(later);
    writeFileSync(path.join(workspace, 'AGENTS.md'), 'run the tests');
    trusted = [];
    expect(await section(cache)).toBe('');
    trusted = [workspace];
    expect(await section(cache)).toContain('run the tests');
    trusted = [];
    expect(await section(cache)).toBe('');
    // Twin: a folder becoming a repository's subfolder moves its trust to the repository root.
    trusted = [workspace];
    mkdirSync(path.join(root, '.git'));
    expect(await section(cache)).toBe('');
  });

  it('a file changed within the clock tick of the last look is read again every time', async () => {
    const cache = new PromptFilesCache();
    writeFileSync(path.join(workspace, 'AGENTS.md'), 'one');
    await section(cache);
    await section(cache);
    expect(reads).toBe(2);
  });

  it('a saved memory note counts at the next call', async () => {
    const cache = new PromptFilesCache(later);
    const memory = () => cache.memory(root, () => readMemory(root).then(memoryPromptSection));
    expect(await memory()).not.toContain('likes plots');
    await saveNote(root, 'likes plots in SVG');
    expect(await memory()).toContain('likes plots');
    const moved = path.join(root, 'memory-old.md');
    renameSync(path.join(root, 'memory.md'), moved);
    expect(await memory()).not.toContain('likes plots');
  });

  it('with no skills folder anywhere, skills are not looked for again; one a cell makes counts at the next call', async () => {
    const cache = new PromptFilesCache(later);
    const dataDir = path.join(root, 'data');
    mkdirSync(dataDir);
    let finds = 0;
    const skills = () =>
      cache.skills(workspace, dataDir, 'tools', async () => {
        finds++;
        return skillsPromptSection((await findSkills(workspace, { dataDir, trusted: () => trusted })).skills, true);
      });
    expect(await skills()).toBe('');
    expect(await skills()).toBe('');
    expect(finds).toBe(1);
    const skill = path.join(workspace, '.agents', 'skills', 'plots');
    mkdirSync(skill, { recursive: true });
    writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: plots\ndescription: Draws plots in SVG\n---\nUse SVG.\n');
    expect(await skills()).toContain('Draws plots in SVG');
    // With a skills folder there, every call looks again, so an edit to a skill counts at once.
    writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: plots\ndescription: Draws charts\n---\nUse SVG.\n');
    expect(await skills()).toContain('Draws charts');
    expect(finds).toBe(3);
    // The person's own skills folder appearing counts too.
    rmSync(path.join(workspace, '.agents'), { recursive: true });
    expect(await skills()).toBe('');
    mkdirSync(path.join(dataDir, 'skills', 'mine'), { recursive: true });
    writeFileSync(path.join(dataDir, 'skills', 'mine', 'SKILL.md'), '---\nname: mine\ndescription: The person own skill\n---\nHi.\n');
    expect(await skills()).toContain('The person own skill');
  });
});
