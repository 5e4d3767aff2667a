import { createHash } from 'node:crypto';
import { objectId } from './blob-writer';
import { encodeTree, type TreeEntry } from './tree-encoding';

/**
 * Content-defined chunking of big files (issue 26 item 4; docs/checkpoints.md, "Big files"). A
 * SQLite database, a parquet or HDF5 file, a model checkpoint: edited in place a few KB at a time, and
 * stored whole each time that cost its whole size per cell. Cut into chunks whose ends depend only on
 * the bytes around them (a gear hash, as FastCDC), an edit changes the chunks it touches and no other —
 * an insertion too, since the cuts after it find the same bytes again — so the store grows with what
 * changed.
 *
 * The chunks are git blobs, and the list of a file's chunks is a tree of git trees (as bup does): each
 * node lists up to MAX_FAN children named by their position in two hex digits, and a node ends where a
 * child's id says so (also content-defined), so an edit rewrites one node per level, not the list.
 * Being git trees, they keep their chunks alive and git's own gc frees what no checkpoint reaches.
 */

/** Files at least this large are stored as chunks; smaller ones as one blob each, as git would. */
export const CHUNKED_FROM = 2 * 1024 * 1024;

const MIN_CHUNK = 256;
const AVG_CHUNK = 512;
const MAX_CHUNK = 4096;
// FastCDC's normalised chunking: a stricter mask before the average size and a looser one after keep
// chunk sizes close to the average, so an edit drags fewer unchanged bytes along with it.
const MASK_STRICT = 0xffe00000 | 0; // 11 bits: a cut 1 in 2048 bytes
const MASK_LOOSE = 0xff800000 | 0; // 9 bits: 1 in 512

/** A node of the chunk list ends after a child whose id's first byte is a multiple of this (or at MAX_FAN). */
const AVG_FAN = 4;
const MIN_FAN = 2;
export const MAX_FAN = 32;

/** 256 fixed pseudo-random words; they must never change, or the same bytes would cut differently. */
const GEAR = (() => {
  const table = new Int32Array(256);
  for (let i = 0; i < 256; i++) table[i] = createHash('sha256').update(`oi-gear-${i}`).digest().readInt32LE(0);
  return table;
})();

/** Where the chunk that starts at `start` ends: the first cut the gear hash finds, or MAX_CHUNK, or the end. */
function cutFrom(buf: Uint8Array, start: number): number {
  const n = buf.length;
  const remaining = n - start;
  if (remaining <= MIN_CHUNK) return n;
  const normal = start + Math.min(AVG_CHUNK, remaining);
  const last = start + Math.min(MAX_CHUNK, remaining);
  let h = 0;
  let i = start + MIN_CHUNK;
  for (; i < normal; i++) {
    h = ((h << 1) + (GEAR[buf[i] as number] as number)) | 0;
    if ((h & MASK_STRICT) === 0) return i + 1;
  }
  for (; i < last; i++) {
    h = ((h << 1) + (GEAR[buf[i] as number] as number)) | 0;
    if ((h & MASK_LOOSE) === 0) return i + 1;
  }
  return last;
}

/** Where each chunk of `buf` ends (exclusive offsets; the last is buf.length). */
export function chunkEnds(buf: Uint8Array): number[] {
  const ends: number[] = [];
  for (let start = 0; start < buf.length; start = ends[ends.length - 1] as number) ends.push(cutFrom(buf, start));
  return ends;
}

/** An object to store: its id, type and content. */
export interface ChunkObject {
  sha: string;
  type: 'blob' | 'tree';
  content: Buffer;
}

/**
 * A version's chunks, kept in memory for the next version of the same file: its runs (content-defined
 * groups of about RUN_AVG chunks, each with the SHA-1 of its bytes) and its nodes, level by level, so
 * the next version hashes an unchanged run once instead of each chunk in it, and rebuilds no node whose
 * children it took over unchanged.
 */
export interface ChunkList {
  size: number;
  chunks: Array<{ end: number; sha: string }>;
  runs: Map<number, { end: number; hash: string; first: number; count: number }>;
  levels: NodeLevel[];
  /** Every chunk's id: the store holds them (loose or packed), so a chunk cut again is not listed as new. */
  known: Set<string>;
}

/**
 * One level of the tree of nodes: how many children it had, and each node by the position of its first
 * child — how many children it took, its id, and its own position among the next level's children.
 */
export interface NodeLevel {
  length: number;
  nodes: Map<number, { count: number; sha: string; index: number }>;
}

export interface ChunkedFile {
  /** The tree that lists the chunks (through nodes); what a checkpoint keeps for the file. */
  root: string;
  /** The chunks and nodes this version adds to `previous` (all of them without one). */
  objects: ChunkObject[];
  chunks: ChunkList;
}

/** A run ends after a chunk whose id says so (1 in RUN_AVG), or at RUN_MAX chunks. */
const RUN_AVG = 64;
const RUN_MAX = 256;

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

/**
 * A big file as chunk blobs and the trees that list them. With `previous` (the last version's chunks),
 * a run that starts where one started before and has the same bytes (by SHA-1, as git's own ids) has
 * the same chunks: a gear hash's cut depends only on the bytes since the chunk's start, and a run's end
 * only on its chunks. So this gives exactly the chunks of a fresh cut
 * (test/unit/checkpoints/chunking.test.ts) while hashing an unchanged 40 MB in a few hundred calls.
 * Chunks that `previous` had are not listed in `objects` (the store has them); nor are its nodes taken
 * over (buildNodes), though a node built again that it had may be (storing it again changes nothing).
 */
export function chunkFile(content: Buffer, previous?: ChunkList): ChunkedFile {
  const objects: ChunkObject[] = [];
  const n = content.length;
  const chunks: ChunkList['chunks'] = [];
  const runs: ChunkList['runs'] = new Map();
  // Each chunk's position in the last version's list (-1: cut afresh), for the nodes (buildNodes).
  const chunkOrigins: number[] = [];
  let runStart = 0;
  let runFirst = 0;
  for (let start = 0; start < n;) {
    const before = start === runStart ? previous?.runs.get(start) : undefined;
    // A run that ended the previous version was cut by the end of the file: the same only if this one ends there too.
    if (before && previous && (before.end < previous.size ? before.end <= n : before.end === n)) {
      if (sha1(content.subarray(start, before.end)) === before.hash) {
        runs.set(start, { ...before, first: chunks.length });
        for (let i = before.first; i < before.first + before.count; i++) {
          chunks.push(previous.chunks[i] as { end: number; sha: string });
          chunkOrigins.push(i);
        }
        start = runStart = before.end;
        runFirst = chunks.length;
        continue;
      }
    }
    const end = cutFrom(content, start);
    const piece = content.subarray(start, end);
    const sha = objectId('blob', piece);
    // A run cut again around an edit holds mostly chunks the last version had (and the store has).
    if (!previous?.known.has(sha)) objects.push({ sha, type: 'blob', content: piece });
    chunks.push({ end, sha });
    chunkOrigins.push(-1);
    start = end;
    const count = chunks.length - runFirst;
    if (parseInt(sha.slice(2, 4), 16) % RUN_AVG === 0 || end === n || count === RUN_MAX) {
      runs.set(runStart, { end, hash: sha1(content.subarray(runStart, end)), first: runFirst, count });
      runStart = end;
      runFirst = chunks.length;
    }
  }
  const { root, levels } = buildNodes(chunks, chunkOrigins, previous?.levels, objects);
  const known = new Set(chunks.map((c) => c.sha));
  return { root, objects, chunks: { size: n, chunks, runs, levels, known } };
}

/**
 * The levels of nodes over `chunks`, until one node holds the rest (a file of one chunk still gets a
 * root tree). A node ends after a child whose id says so (once it has MIN_FAN) or at MAX_FAN, so a node
 * that starts at a child taken over from the last version, and whose children are all that version's
 * next ones, ends where it ended then — unless it ended then only because its level did. Such a node
 * is the last version's (its id reused, nothing encoded or hashed); the rest are built and listed in
 * `objects`. `origins[i]` is child i's position in the last version's level, or -1.
 */
function buildNodes(
  chunks: ReadonlyArray<{ sha: string }>,
  chunkOrigins: readonly number[],
  before: readonly NodeLevel[] | undefined,
  objects: ChunkObject[],
): { root: string; levels: NodeLevel[] } {
  const levels: NodeLevel[] = [];
  const built = new Set<string>();
  let level: Array<{ sha: string; type: 'blob' | 'tree' }> = chunks.map((c) => ({ sha: c.sha, type: 'blob' }));
  let origins = chunkOrigins;
  do {
    const old = before?.[levels.length];
    const here: NodeLevel = { length: level.length, nodes: new Map() };
    const next: typeof level = [];
    const nextOrigins: number[] = [];
    for (let i = 0; i < level.length;) {
      const from = origins[i] ?? -1;
      const kept = from >= 0 ? old?.nodes.get(from) : undefined;
      if (
        kept &&
        old &&
        sameChildren(origins, i, from, kept.count) &&
        (from + kept.count < old.length || i + kept.count === level.length)
      ) {
        here.nodes.set(i, { count: kept.count, sha: kept.sha, index: next.length });
        next.push({ sha: kept.sha, type: 'tree' });
        nextOrigins.push(kept.index);
        i += kept.count;
        continue;
      }
      const start = i;
      const node: TreeEntry[] = [];
      while (i < level.length) {
        const child = level[i++] as { sha: string; type: 'blob' | 'tree' };
        node.push({ mode: child.type === 'tree' ? '040000' : '100644', type: child.type, sha: child.sha, name: position(node.length) });
        if ((node.length >= MIN_FAN && parseInt(child.sha.slice(0, 2), 16) % AVG_FAN === 0) || node.length === MAX_FAN) break;
      }
      const content = encodeTree(node);
      const sha = objectId('tree', content);
      // The last version may have had it elsewhere: the store then has it, and writing it is a no-op.
      if (!built.has(sha)) objects.push({ sha, type: 'tree', content });
      built.add(sha);
      here.nodes.set(start, { count: node.length, sha, index: next.length });
      next.push({ sha, type: 'tree' });
      nextOrigins.push(-1);
    }
    levels.push(here);
    level = next;
    origins = nextOrigins;
  } while (level.length > 1);
  return { root: level[0]?.sha ?? '', levels };
}

/** Whether children i… are the last version's from… (count of them, in order). */
function sameChildren(origins: readonly number[], i: number, from: number, count: number): boolean {
  if (i + count > origins.length) return false;
  for (let k = 0; k < count; k++) if (origins[i + k] !== from + k) return false;
  return true;
}

/** A child's name in its node: its position, two hex digits, so git's order is the file's order. */
export const position = (i: number): string => i.toString(16).padStart(2, '0');
