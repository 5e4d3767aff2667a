import { realpathSync } from 'node:fs';
import path from 'node:path';
import { entriesIdentity } from '../fs/entry-identity';
import { folderChain } from '../workspace/workspace-trust';
import { memoryFile } from './memory';
import type { InstructionSources } from './project-instructions';

// The instructions and memory sections are built before every model call, and a file changed between
// calls (by the person, or by the turn's own cells) must count at the next one (prompt-sections.ts).
// Reading them is a few asynchronous no-follow opens a call (issue 37), so the last section built is
// kept with the identity of everything it was built from, compared before each call in a few
// synchronous system calls, as hooks are (hooks/hook-config-cache.ts): the workspace's real path and
// folder chain (the nearest `.git` up), the trusted folders and the person's file, and the identity
// (fs/entry-identity.ts) of every AGENTS.md and CLAUDE.md the chain could hold and of the person's
// file — or of the memory file. The files are still read only by the loaders, which never follow a
// link; a change too recent to tell is read again.

/** Workspaces and data folders remembered at once; the oldest goes first. */
const KEPT = 32;

export class PromptFilesCache {
  private readonly kept = new Map<string, { key: string; text: string }>();

  /** `now` is the wall clock the files' ctimes are compared with (tests move it). */
  constructor(private readonly now: () => number = Date.now) {}

  instructions(workspace: string, sources: InstructionSources, load: () => Promise<string>): Promise<string> {
    return this.through(`i\0${workspace}`, instructionsIdentity(workspace, sources, this.now()), load);
  }

  /**
   * The skills section, kept only while there is no skills folder at all (the common case): the
   * person's `<data>/skills` and the workspace's `.agents`, `.agents/skills`, `.claude` and
   * `.claude/skills` all absent (lstat: a link in their place is present too). One appearing, from a
   * cell or the person, is seen at the next call; with any of them present, skills are found afresh.
   */
  skills(workspace: string, dataDir: string | null, variant: string, load: () => Promise<string>): Promise<string> {
    return this.through(`s\0${workspace}\0${variant}`, noSkillsIdentity(workspace, dataDir, this.now()), load);
  }

  memory(dataDir: string, load: () => Promise<string>): Promise<string> {
    const files = entriesIdentity([memoryFile(dataDir)], this.now());
    return this.through(`m\0${dataDir}`, files === null ? null : `${dataDir}\n${files}`, load);
  }

  private async through(slot: string, key: string | null, load: () => Promise<string>): Promise<string> {
    const kept = this.kept.get(slot);
    if (key !== null && kept?.key === key) return kept.text;
    // The key is taken before the read: a change while it reads makes the next key differ.
    const text = await load();
    this.kept.delete(slot);
    if (key !== null) {
      this.kept.set(slot, { key, text });
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    }
    return text;
  }
}

function instructionsIdentity(workspace: string, sources: InstructionSources, now: number): string | null {
  let real: string;
  try {
    real = realpathSync.native(workspace);
  } catch {
    return null;
  }
  const folders = folderChain(real);
  const watched = folders.flatMap((f) => [path.join(f, 'AGENTS.md'), path.join(f, 'CLAUDE.md')]);
  if (sources.userFile) watched.push(sources.userFile);
  const files = entriesIdentity(watched, now);
  if (files === null) return null;
  return [real, folders.join('\0'), sources.trusted().join('\0'), sources.userFile ?? '', files].join('\n');
}

function noSkillsIdentity(workspace: string, dataDir: string | null, now: number): string | null {
  let real: string;
  try {
    real = realpathSync.native(workspace);
  } catch {
    return null;
  }
  const places = [
    ...(dataDir ? [path.join(dataDir, 'skills')] : []),
    ...['.agents', '.claude'].flatMap((top) => [path.join(real, top), path.join(real, top, 'skills')]),
  ];
  const files = entriesIdentity(places, now);
  // Only "none there": a skill's own files are not in this identity, so a present folder is read each time.
  if (files === null || files.split('\n').some((part) => part !== '-')) return null;
  return `${real}\n${dataDir ?? ''}`;
}
