import { putObject, writeBlob } from './blob-writer';
import { chunkFile, type ChunkList, type ChunkObject } from './chunking';
import { packOf } from './pack-writer';
import type { GitObjects, TreeEntry } from './git-objects';

/**
 * Big files in the store as chunks (chunking.ts says how they are cut; docs/checkpoints.md, "Big
 * files"). In a checkpoint's tree such a file's entry is a small *pointer* blob — its size and the
 * tree listing its chunks — so trees, diffs of trees and restore plans work on it as on any file (same
 * bytes, same id). Which paths are pointers is said by the snapshot itself, never by a blob's content:
 * beside the tree, a *holder* tree lists them (an `index` blob: path, pointer, chunk tree, size) and
 * keeps their chunk trees alive (entries `c0`, `c1`…), so git's gc frees a chunk exactly when no
 * remaining checkpoint's holder reaches it. A cell can write a file whose bytes are a pointer's; it is
 * then a plain file of that content, since the holder does not name it.
 *
 * Everything read back is parsed strictly (ids, sizes, names) and checked against what the snapshot
 * recorded — a damaged store is an error naming what is wrong, before the restore changes anything —
 * and nothing read here is a path: where a file is written comes from the checkpoint's tree alone.
 */

export interface ChunkRef {
  /** The pointer blob: the file's id in the checkpoint's tree. */
  pointer: string;
  /** The tree of trees listing the chunks in order. */
  root: string;
  size: number;
}

const HEX40 = /^[0-9a-f]{40}$/;
const POINTER = /^oi chunked file 1\nsize (\d+)\nchunks ([0-9a-f]{40})\n$/;
const WRITES_IN_FLIGHT = 16;
/** From this many new objects on, they go into the store as one pack (pack-writer.ts), not as loose files. */
const PACK_FROM = 256;

/** Stores `content` as chunks (only those the store lacks are written); `newBytes` is what was added. */
export async function storeChunked(
  objects: GitObjects,
  content: Buffer,
  previous: ChunkList | undefined,
): Promise<{ ref: ChunkRef; newBytes: number; chunks: ChunkList }> {
  const made = chunkFile(content, previous);
  const newBytes = await storeObjects(objects, made.objects);
  const pointer = await writeBlob(objects.gitDir, Buffer.from(`oi chunked file 1\nsize ${content.length}\nchunks ${made.root}\n`, 'utf8'));
  return { ref: { pointer, root: made.root, size: content.length }, newBytes, chunks: made.chunks };
}

/**
 * Writes the objects the store lacks; returns their bytes. A few (an edit's) are written loose, each
 * checked by a stat; many (a new file's) are first asked of git in one call, and the missing ones go
 * in as one pack.
 */
async function storeObjects(objects: GitObjects, list: readonly ChunkObject[]): Promise<number> {
  let todo = list;
  if (list.length >= PACK_FROM) {
    const present = await objects.sizes([...new Set(list.map((o) => o.sha))]);
    const seen = new Set<string>();
    todo = list.filter((o) => !present.has(o.sha) && !seen.has(o.sha) && (seen.add(o.sha), true));
    if (todo.length >= PACK_FROM) {
      await objects.git(['index-pack', '--stdin'], { input: packOf(todo) });
      return todo.reduce((sum, o) => sum + o.content.length, 0);
    }
  }
  let newBytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const o = todo[next++];
      if (o && (await putObject(objects.gitDir, o.type, o.content, o.sha)).written) newBytes += o.content.length;
    }
  };
  await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, worker));
  return newBytes;
}

/** The holder tree of a snapshot's chunked files (null when it has none). */
export async function writeChunkHolder(objects: GitObjects, chunked: ReadonlyMap<string, ChunkRef>): Promise<string | null> {
  if (chunked.size === 0) return null;
  const rows = [...chunked].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([p, r]) => [p, r.pointer, r.root, r.size]);
  const index = await writeBlob(objects.gitDir, Buffer.from(JSON.stringify(rows), 'utf8'));
  const roots = [...new Set([...chunked.values()].map((r) => r.root))];
  const holder = await objects.writeTrees((write) =>
    write([
      { mode: '100644', type: 'blob', sha: index, name: 'index' },
      ...roots.map((sha, i): TreeEntry => ({ mode: '040000', type: 'tree', sha, name: `c${i}` })),
    ]),
  );
  remember(`${objects.gitDir}\0${holder}`, new Map(chunked));
  return holder;
}

/**
 * Indexes read or written lately, by store and holder id: a holder's content never changes under its
 * id, and each cell's after() would otherwise start git twice to read what it has just written.
 */
const recent = new Map<string, Map<string, ChunkRef>>();
function remember(key: string, index: Map<string, ChunkRef>): void {
  recent.delete(key);
  recent.set(key, index);
  if (recent.size > 32) recent.delete(recent.keys().next().value ?? '');
}

/** A snapshot's chunked files by path (none without a holder). */
export async function readChunkIndex(objects: GitObjects, holder: string | null | undefined): Promise<Map<string, ChunkRef>> {
  if (!holder) return new Map();
  if (!HEX40.test(holder))
    throw new Error(`a checkpoint's list of big files is damaged: ${JSON.stringify(holder.slice(0, 60))} is not an object id`);
  const key = `${objects.gitDir}\0${holder}`;
  const known = recent.get(key);
  if (known) return known;
  const index = parseChunkIndex((await objects.readBlob(`${holder}:index`)).toString('utf8'));
  remember(key, index);
  return index;
}

export function parseChunkIndex(text: string): Map<string, ChunkRef> {
  const damaged = (why: string) => new Error(`a checkpoint's list of big files is damaged: ${why}`);
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    throw damaged('not JSON');
  }
  if (!Array.isArray(rows)) throw damaged('not a list');
  const out = new Map<string, ChunkRef>();
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 4) throw damaged('a row is not [path, pointer, chunks, size]');
    const [p, pointer, root, size] = row as unknown[];
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw damaged('a path is not a path');
    if (typeof pointer !== 'string' || !HEX40.test(pointer) || typeof root !== 'string' || !HEX40.test(root))
      throw damaged(`the ids of ${JSON.stringify(p)} are not object ids`);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
      throw damaged(`the size of ${JSON.stringify(p)} is not a size`);
    out.set(p, { pointer, root, size });
  }
  return out;
}

/** The pointers' real sizes (a tree's diff sees a pointer blob's own size). */
export function chunkedSizes(...indexes: ReadonlyArray<ReadonlyMap<string, ChunkRef>>): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const index of indexes) for (const r of index.values()) sizes.set(r.pointer, r.size);
  return sizes;
}

/**
 * The ordered chunks of a chunked file, each id and size checked, the pointer checked against the index,
 * and the sizes summing to the file's: a damaged store is an error here, before a restore writes.
 */
export async function chunkListOf(objects: GitObjects, ref: ChunkRef): Promise<Array<{ sha: string; size: number }>> {
  const damaged = (why: string) => new Error(`the checkpoint's copy of a big file is damaged (${ref.pointer}): ${why}`);
  const pointer = POINTER.exec((await objects.readBlob(ref.pointer)).toString('utf8'));
  if (!pointer || pointer[2] !== ref.root || Number(pointer[1]) !== ref.size) throw damaged('its pointer does not match the list');
  const out: Array<{ sha: string; size: number }> = [];
  let total = 0;
  for (const record of (await objects.git(['ls-tree', '-r', '-l', '-z', '--full-tree', ref.root])).split('\0')) {
    if (!record) continue;
    const m = /^100644 blob ([0-9a-f]{40}) +(\d+)\t(?:[0-9a-f]{2}\/)*[0-9a-f]{2}$/.exec(record);
    if (!m) throw damaged(`an unexpected entry ${JSON.stringify(record.slice(0, 80))}`);
    const size = Number(m[2]);
    out.push({ sha: m[1] ?? '', size });
    total += size;
  }
  if (total !== ref.size) throw damaged(`its chunks hold ${total} bytes, not ${ref.size}`);
  return out;
}

/** A chunked file's bytes, put together from its chunks (each one's size checked again as read). */
export async function readChunked(objects: GitObjects, chunks: ReadonlyArray<{ sha: string; size: number }>): Promise<Buffer> {
  const blobs = await objects.readBlobs(chunks.map((c) => c.sha));
  blobs.forEach((b, i) => {
    if (b.length !== chunks[i]?.size) throw new Error(`a chunk of a big file is damaged in the store (${chunks[i]?.sha ?? '?'})`);
  });
  return Buffer.concat(blobs);
}

/**
 * The chunk lists of the files a restore writes that the target snapshot stored as chunks — those
 * whose id in the tree is the pointer its holder names — each checked (chunkListOf) before anything
 * is written.
 */
export async function chunkedWrites(
  objects: GitObjects,
  writes: ReadonlyArray<{ path: string; sha: string; mode: string }>,
  index: ReadonlyMap<string, ChunkRef>,
): Promise<Map<string, Array<{ sha: string; size: number }>>> {
  const out = new Map<string, Array<{ sha: string; size: number }>>();
  for (const e of writes) {
    const ref = index.get(e.path);
    if (ref && ref.pointer === e.sha && e.mode !== '120000') out.set(e.path, await chunkListOf(objects, ref));
  }
  return out;
}
