import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { readBeneath } from '../fs/bounded-read';
import { prefixWithin } from './project-instructions';

// Memory (issue 28, item 5; docs/agent.md#memory): short notes the model saves with the save_memory
// tool ("the data is in ~/survey, plots in SVG"), one line each in a plain file the person reads and
// edits (`<data folder>/memory.md`, Settings → Memory), given to every new model call in the system
// prompt, bounded. Each save is a line in the conversation the person sees; with the `memory` setting
// off the tool is not offered and nothing is read. The file is the person's, outside every workspace,
// so sandboxed code cannot write it; it is still opened without following a link.

export const MEMORY_FILE = 'memory.md';
/** Bytes of the file given to the model; the rest is left out with a note. */
export const MEMORY_PROMPT_BYTES = 8 * 1024;
/** A note the model saves: a sentence or two, not a document. */
export const MAX_NOTE_CHARS = 500;
/** The file the app appends to: past this, the person tidies it first. */
export const MAX_MEMORY_BYTES = 32 * 1024;

export const memoryFile = (dataDir: string): string => path.join(dataDir, MEMORY_FILE);

/** The file's text ('' when there is none), read without following a link, at most `max` bytes (+1). */
export async function readMemory(dataDir: string, max = MAX_MEMORY_BYTES): Promise<string> {
  const read = await readBeneath(dataDir, [MEMORY_FILE], max);
  if (!read.ok) {
    if (read.why === 'missing') return '';
    throw new Error(`${memoryFile(dataDir)} cannot be read: ${read.message}`);
  }
  return read.bytes.toString('utf8');
}

/** Replaces the file's text (Settings → Memory). */
export async function writeMemory(dataDir: string, text: string): Promise<void> {
  if (Buffer.byteLength(text, 'utf8') > MAX_MEMORY_BYTES) throw new Error(`memory is at most ${MAX_MEMORY_BYTES / 1024} KB`);
  await writeNoFollow(dataDir, text, constants.O_TRUNC);
}

/** Appends one note as a "- " line; the note the person will see, or an error the model reads. */
export async function saveNote(dataDir: string, raw: unknown): Promise<{ ok: true; note: string } | { ok: false; error: string }> {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, error: '"note" must be the text to remember, as a string' };
  const note = raw.replace(/\s+/g, ' ').trim();
  if (note.length > MAX_NOTE_CHARS)
    return { ok: false, error: `a note is at most ${MAX_NOTE_CHARS} characters; save the gist, in a sentence or two` };
  const now = await readMemory(dataDir);
  if (Buffer.byteLength(now, 'utf8') + note.length + 3 > MAX_MEMORY_BYTES)
    return { ok: false, error: `memory is full (${MAX_MEMORY_BYTES / 1024} KB); the person can tidy it in Settings → Memory` };
  const separator = now === '' || now.endsWith('\n') ? '' : '\n';
  await writeNoFollow(dataDir, `${separator}- ${note}\n`, constants.O_APPEND);
  return { ok: true, note };
}

async function writeNoFollow(dataDir: string, text: string, how: number): Promise<void> {
  const handle = await open(memoryFile(dataDir), constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | how, 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** The system prompt's memory section: '' for an empty file. */
export function memoryPromptSection(text: string): string {
  const body = text.trim();
  if (!body) return '';
  const cut = Buffer.byteLength(body, 'utf8') > MEMORY_PROMPT_BYTES;
  return [
    '# Memory',
    'Notes saved in earlier conversations (the person reads and edits them in Settings → Memory). Use them where they apply; what the person says now wins.',
    '',
    cut ? prefixWithin(body, MEMORY_PROMPT_BYTES) : body,
    ...(cut ? [`[… the rest of memory is left out: it is over the ${MEMORY_PROMPT_BYTES / 1024} KB the app gives it]`] : []),
  ].join('\n');
}
