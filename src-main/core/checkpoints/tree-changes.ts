import type { CellChanges, FileChange, FileDiff } from '@contract';
import type { FlatEntry, GitObjects } from './git-objects';
import { formatMb } from './format-size';
import { isSecretsFile } from './ignored-paths';

// What changed between two recorded trees of a workspace: the list of files (for the cell and the
// model), each file's diff (for the UI), and the lines the model is told.

/** One line per file for the model, up to this many. */
const MODEL_LINES = 20;

/** Files created, modified, deleted or renamed between two trees (renames found by git, by content). */
export async function changesBetween(
  objects: GitObjects,
  from: string,
  to: string,
  /** Big files' real sizes by pointer (chunked-files.ts): a tree holds their pointer blob. */
  bigSizes: ReadonlyMap<string, number> = new Map(),
): Promise<FileChange[]> {
  if (from === to) return [];
  const out = await objects.git(['diff-tree', '-r', '-M', '-z', '--raw', '--no-commit-id', from, to]);
  const parts = out.split('\0');
  const raw: Array<{ status: string; oldSha: string; newSha: string; path: string; from?: string }> = [];
  for (let i = 0; i < parts.length;) {
    const meta = parts[i++];
    if (!meta?.startsWith(':')) continue;
    const [, , oldSha = '', newSha = '', status = ''] = meta.slice(1).split(' ');
    if (status.startsWith('R')) {
      const src = parts[i++] ?? '';
      raw.push({ status: 'R', oldSha, newSha, path: parts[i++] ?? '', from: src });
    } else raw.push({ status: status.slice(0, 1), oldSha, newSha, path: parts[i++] ?? '' });
  }
  const zero = /^0+$/;
  const ids = new Set(raw.flatMap((r) => [r.oldSha, r.newSha]).filter((s) => !zero.test(s)));
  // A big file's size is known (its pointer's own is not the file's): git is asked only for the rest,
  // and not started at all when a cell changed only big files.
  const sizes = await objects.sizes([...ids].filter((sha) => !bigSizes.has(sha)));
  for (const [sha, size] of bigSizes) if (ids.has(sha)) sizes.set(sha, size);
  return raw.map((r): FileChange => {
    const size = zero.test(r.newSha) ? null : (sizes.get(r.newSha) ?? null);
    const previousSize = zero.test(r.oldSha) ? null : (sizes.get(r.oldSha) ?? null);
    const change = r.status === 'A' ? 'created' : r.status === 'D' ? 'deleted' : r.status === 'R' ? 'renamed' : 'modified';
    return { path: r.path, change, ...(r.from ? { from: r.from } : {}), size, previousSize };
  });
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_DIFF_CHARS = 200_000;
/** The most of one side of a file `checkpoints.diff` hands out whole when asked (an editor's diff view, docs/acp.md). */
export const MAX_WHOLE_TEXT_BYTES = 256 * 1024;

/** Each changed file's diff for the UI: text (cut past a size), images as data: URLs, binaries and links named. */
export async function fileDiffs(
  objects: GitObjects,
  from: string,
  to: string,
  bigSizes: ReadonlyMap<string, number> = new Map(),
  /** Also each text file's whole text before and after (bounded, UTF-8 only). */
  wholeText = false,
): Promise<FileDiff[]> {
  const changes = await changesBetween(objects, from, to, bigSizes);
  const before = new Map((await objects.listTree(from)).map((e) => [e.path, e]));
  const after = new Map((await objects.listTree(to)).map((e) => [e.path, e]));
  const out: FileDiff[] = [];
  // A folder (an empty one is kept as a tree of its own) is not the other side of a file's diff: a path
  // that became a file where a folder was is a created file, and the other way round a deleted one.
  const fileAt = (entries: Map<string, FlatEntry>, at: string): FlatEntry | undefined => {
    const e = entries.get(at);
    return e && e.mode !== '040000' ? e : undefined;
  };
  for (const change of changes) {
    const old = fileAt(before, change.from ?? change.path);
    const now = fileAt(after, change.path);
    if (old?.mode === '120000' || now?.mode === '120000') {
      out.push({ ...change, kind: 'symlink' });
      continue;
    }
    // A big file stored as chunks: its tree entry is a pointer, whose text is no diff of the file.
    if ((old && bigSizes.has(old.sha)) || (now && bigSizes.has(now.sha))) {
      out.push({ ...change, kind: 'binary' });
      continue;
    }
    // A `.env` or a key: that it changed is shown, never its contents (they are keys).
    if (isSecretsFile(change.path)) {
      out.push({ ...change, kind: 'secret' });
      continue;
    }
    const mime = IMAGE_TYPES[change.path.split('.').pop()?.toLowerCase() ?? ''];
    if (mime && (change.size ?? 0) <= MAX_IMAGE_BYTES && (change.previousSize ?? 0) <= MAX_IMAGE_BYTES) {
      const url = async (e: FlatEntry | undefined) =>
        e ? `data:${mime};base64,${(await objects.readBlob(e.sha)).toString('base64')}` : undefined;
      const [b, a] = await Promise.all([url(old), url(now)]);
      out.push({ ...change, kind: 'image', ...(b ? { before: b } : {}), ...(a ? { after: a } : {}) });
      continue;
    }
    const text = await objects.diffBlobs(old?.sha ?? null, now?.sha ?? null, change.path);
    if (/^Binary files /m.test(text)) out.push({ ...change, kind: 'binary' });
    else
      out.push({
        ...change,
        kind: 'text',
        diff:
          text.length > MAX_DIFF_CHARS
            ? `${text.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters)`
            : text,
        ...(wholeText ? await wholeTexts(objects, old, now, change) : {}),
      });
  }
  return out;
}

/** Both sides of a text file whole, or nothing when either is over the cap or is not UTF-8. */
async function wholeTexts(
  objects: GitObjects,
  old: FlatEntry | undefined,
  now: FlatEntry | undefined,
  change: FileChange,
): Promise<{ oldText: string | null; newText: string | null } | Record<string, never>> {
  if ((change.size ?? 0) > MAX_WHOLE_TEXT_BYTES || (change.previousSize ?? 0) > MAX_WHOLE_TEXT_BYTES) return {};
  const [before, after] = await Promise.all([old && objects.readBlob(old.sha), now && objects.readBlob(now.sha)]);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  try {
    return { oldText: before ? utf8.decode(before) : null, newText: after ? utf8.decode(after) : null };
  } catch {
    return {}; // Not UTF-8 (Latin-1, UTF-16): shown as its unified diff only.
  }
}

/** What the model is told: one bounded line per file. */
export function changesForModel(changes: CellChanges): string {
  if (!changes.checkpointed) return '';
  const lines: string[] = [];
  for (const f of changes.files.slice(0, MODEL_LINES)) {
    const size = f.size !== null ? ` (${bytes(f.size)})` : '';
    const name = clip(f.path);
    lines.push(f.change === 'renamed' ? `renamed ${f.from ?? '?'} → ${name}${size}` : `${f.change} ${name}${size}`);
  }
  if (changes.files.length > MODEL_LINES) lines.push(`… and ${changes.files.length - MODEL_LINES} more files`);
  const lost = (changes.unrestorable ?? []).slice(0, MODEL_LINES).map((u) => `${u.change} ${clip(u.path)}`);
  const lostCount = changes.unrestorableCount ?? lost.length;
  if (lostCount > lost.length) lost.push(`… and ${lostCount - lost.length} more`);
  if (lines.length === 0 && lost.length === 0) return '';
  const changed = lines.length > 0 ? `\n\nFiles changed in the workspace:\n${lines.join('\n')}` : '';
  return lost.length > 0
    ? `${changed}\n\nIgnored or over-cap paths changed that the checkpoint could not keep (a rewind cannot put them back):\n${lost.join('\n')}`
    : changed;
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : formatMb(n);
}

const clip = (p: string): string => (p.length > 200 ? `…${p.slice(-199)}` : p);
