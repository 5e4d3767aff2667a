import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseChunkIndex } from '../../../src-main/core/checkpoints/chunked-files';
import { chunkEnds, chunkFile } from '../../../src-main/core/checkpoints/chunking';
import { storedZlib } from '../../../src-main/core/checkpoints/pack-writer';

// Big files are cut into content-defined chunks (checkpoints/chunking.ts). What the store relies on:
// the cut depends only on the bytes, so a version cut with the last version's runs as a shortcut is
// exactly the version cut afresh, and an edit leaves the chunks it does not touch as they were.

const MB = 1024 * 1024;

function variants(base: Buffer): Array<[string, Buffer]> {
  const edited = Buffer.from(base);
  randomBytes(4096).copy(edited, 700_000);
  return [
    ['edited in place', edited],
    ['bytes inserted', Buffer.concat([base.subarray(0, 300_000), randomBytes(777), base.subarray(300_000)])],
    ['bytes removed', Buffer.concat([base.subarray(0, 500_000), base.subarray(510_000)])],
    ['grown at the end', Buffer.concat([base, randomBytes(3000)])],
    ['truncated', base.subarray(0, base.length - 12_345)],
    ['emptied', Buffer.alloc(0)],
  ];
}

describe('content-defined chunking of big files', () => {
  it('cuts a version with the last version as a shortcut exactly as it cuts it afresh', () => {
    const base = randomBytes(2 * MB);
    const first = chunkFile(base);
    for (const [, next] of variants(base)) {
      const fresh = chunkFile(next);
      const quick = chunkFile(next, first.chunks);
      expect(quick.root).toBe(fresh.root);
      expect(quick.chunks.chunks).toEqual(fresh.chunks.chunks);
    }
  });

  it("reuses the last version's nodes only where they are the same: a chain of shortcut versions ends as the fresh cut", () => {
    // Each version is cut from the one before (its nodes taken over where their children are), as a
    // workspace's big file is from cell to cell; every step must give the fresh cut's tree.
    let version: Buffer = randomBytes(2 * MB);
    let last = chunkFile(version);
    for (const step of [0, 1, 0, 2, 3, 0, 4, 1]) {
      version = variants(version)[step]?.[1] ?? version;
      const quick = chunkFile(version, last.chunks);
      expect(quick.root).toBe(chunkFile(version).root);
      last = quick;
    }
  });

  it('keeps the chunks an edit does not touch, and the chunks put back together are the file', () => {
    const base = randomBytes(2 * MB);
    const first = chunkFile(base);
    const blobs = first.objects.filter((o) => o.type === 'blob');
    expect(Buffer.concat(blobs.map((b) => b.content)).equals(base)).toBe(true);
    const ends = chunkEnds(base);
    expect(ends.at(-1)).toBe(base.length);
    // Every chunk but the last between the least and the most a chunk may be.
    ends.slice(0, -1).forEach((end, i) => expect(end - (ends[i - 1] ?? 0)).toBeGreaterThanOrEqual(256));
    ends.forEach((end, i) => expect(end - (ends[i - 1] ?? 0)).toBeLessThanOrEqual(4096));
    const [, edited] = variants(base)[0] ?? ['', base];
    const next = chunkFile(edited, first.chunks);
    // Only what the edit touched is new: a few chunks and one node per level, not the file.
    const had = new Set(first.objects.map((o) => o.sha));
    const added = next.objects.filter((o) => !had.has(o.sha));
    const newBytes = added.filter((o) => o.type === 'blob').reduce((sum, o) => sum + o.content.length, 0);
    expect(newBytes).toBeGreaterThanOrEqual(4096);
    expect(newBytes).toBeLessThan(4 * 4096);
    expect(added.filter((o) => o.type === 'tree').length).toBeLessThan(16);
  });

  it('writes zlib streams git can read, of any size', () => {
    for (const size of [0, 1, 700, 65_535, 65_536, 200_000]) {
      const data = randomBytes(size);
      expect(inflateSync(storedZlib(data)).equals(data)).toBe(true);
    }
  });

  it('reads a list of big files strictly, and names what is wrong with a damaged one', () => {
    const id = 'a'.repeat(40);
    expect(parseChunkIndex(JSON.stringify([['data/big.bin', id, id, 5]])).get('data/big.bin')).toEqual({ pointer: id, root: id, size: 5 });
    expect(() => parseChunkIndex('{')).toThrow(/damaged: not JSON/);
    expect(() => parseChunkIndex('{}')).toThrow(/damaged: not a list/);
    expect(() => parseChunkIndex(JSON.stringify([['x', id, id]]))).toThrow(/a row is not/);
    expect(() => parseChunkIndex(JSON.stringify([['', id, id, 1]]))).toThrow(/not a path/);
    expect(() => parseChunkIndex(JSON.stringify([['x', 'HEAD', id, 1]]))).toThrow(/not object ids/);
    expect(() => parseChunkIndex(JSON.stringify([['x', id, `${id}:../x`, 1]]))).toThrow(/not object ids/);
    expect(() => parseChunkIndex(JSON.stringify([['x', id, id, -1]]))).toThrow(/not a size/);
    expect(() => parseChunkIndex(JSON.stringify([['x', id, id, 1.5]]))).toThrow(/not a size/);
  });
});
