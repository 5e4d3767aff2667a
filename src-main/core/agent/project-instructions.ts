import path from 'node:path';
import type { InstructionFile } from '@contract';
import { readBeneath } from '../fs/bounded-read';
import { workspaceTrust } from '../workspace/workspace-trust';

// Project instructions (issue 28, item 1): the AGENTS.md files people keep for agents — in the
// workspace and its parent folders up to the repository root (CLAUDE.md where a folder has no
// AGENTS.md), plus the person's own file in the app's data folder. Read again before every model
// call (they are small, and a file changed between turns must count), bounded, never through a link
// (a link named AGENTS.md could point at ~/.ssh and send it to the model's provider), never blocking
// (a FIFO of that name is not a file). A workspace is a stranger's until the person trusts its
// folder: until then its files are found and shown, but not given to the model.

/** Bytes of one file the model reads; the rest is cut with a note. */
export const INSTRUCTION_FILE_BYTES = 32 * 1024;
/** Bytes of all files together. */
export const INSTRUCTION_TOTAL_BYTES = 64 * 1024;

const NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

export interface LoadedInstructions {
  files: InstructionFile[];
  /** The prompt's section, or '' when no file is in effect. */
  prompt: string;
  /** The folder a person trusts to let the workspace's files in (the repository root, else the workspace). */
  trustFolder: string;
  /** Whether the person trusts it (or a folder above it). */
  trusted: boolean;
  /** Each file's text as read (at most the per-file cap and one byte), for the person to open. */
  texts: Array<{ path: string; text: string }>;
}

export interface InstructionSources {
  /** The person's own file (`<data folder>/AGENTS.md`), or null for none (tests). */
  userFile: string | null;
  /** Real paths of folders the person trusts (settings.trustedFolders). */
  trusted: () => readonly string[];
}

export async function loadInstructions(workspace: string, sources: InstructionSources): Promise<LoadedInstructions> {
  const { folders, trustFolder, trusted } = await workspaceTrust(workspace, sources.trusted());
  const found: Array<{ file: InstructionFile; text: string }> = [];
  if (sources.userFile) {
    const text = await readInstructionFile(path.dirname(sources.userFile), path.basename(sources.userFile));
    if (text !== null)
      found.push({ file: { path: sources.userFile, scope: 'user', bytes: byteLength(text), used: true, cut: false }, text });
  }
  // Root-most first, so the nearest comes last in the prompt, where "nearest wins" points.
  for (const folder of folders) {
    for (const name of NAMES) {
      const text = await readInstructionFile(folder, name);
      if (text === null) continue;
      found.push({ file: { path: path.join(folder, name), scope: 'workspace', bytes: byteLength(text), used: trusted, cut: false }, text });
      break; // CLAUDE.md only where the folder has no AGENTS.md
    }
  }
  const prompt = promptSection(found);
  return { files: found.map((f) => f.file), prompt, trustFolder, trusted, texts: found.map((f) => ({ path: f.file.path, text: f.text })) };
}

/** The file's text (at most the per-file cap, plus one byte to tell it was cut), or null when absent, a link or not a file. */
async function readInstructionFile(folder: string, name: string): Promise<string | null> {
  const read = await readBeneath(folder, [name], INSTRUCTION_FILE_BYTES);
  return read.ok ? read.bytes.toString('utf8') : null;
}

function promptSection(found: Array<{ file: InstructionFile; text: string }>): string {
  const used = found.filter((f) => f.file.used);
  if (used.length === 0) return '';
  const parts = [
    '# Project instructions',
    'The person keeps these instructions for agents in AGENTS.md files (their own, then the project’s from its root down to the workspace). Follow them; where they disagree, the one nearest the workspace wins, and what the person says in the conversation wins over all of them.',
  ];
  let budget = INSTRUCTION_TOTAL_BYTES;
  for (const entry of used) {
    if (budget <= 0) {
      entry.file.cut = true;
      parts.push('', `## ${entry.file.path}`, `[left out: the instructions are over ${INSTRUCTION_TOTAL_BYTES / 1024} KB in all]`);
      continue;
    }
    const room = Math.min(INSTRUCTION_FILE_BYTES, budget);
    const cut = byteLength(entry.text) > room;
    const text = cut ? prefixWithin(entry.text, room) : entry.text;
    entry.file.cut = cut;
    budget -= byteLength(text);
    parts.push('', `## ${entry.file.path}`, text.trimEnd());
    if (cut) parts.push(`[… cut here: this file is longer than the ${Math.round(room / 1024)} KB the app gives it]`);
  }
  return parts.join('\n');
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The longest prefix within `bytes` that does not split a character. */
export function prefixWithin(text: string, bytes: number): string {
  const cut = Buffer.from(text, 'utf8').subarray(0, bytes).toString('utf8');
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}
