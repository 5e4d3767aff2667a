import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkListOf, readChunked, readChunkIndex, writeChunkHolder } from '../../../src-main/core/checkpoints/chunked-files';
import { CHUNKED_FROM } from '../../../src-main/core/checkpoints/chunking';
import { GitObjects } from '../../../src-main/core/checkpoints/git-objects';
import { useServiceSetup } from '../../integration/checkpoints/support/service-setup';
import { treeState } from '../../integration/checkpoints/support/tree-state';

// Issue 26, item 4: a big file is kept in a checkpoint's tree as a small pointer blob naming its chunks
// (checkpoints/chunked-files.ts). A cell can write any bytes, a pointer's included. The pointers are
// known by the snapshot's own list of big files (by path and id), never by their content; the twin
// shows the planted bytes are a working pointer, so a restore that went by content would have written
// another file's bytes there. And a list of big files damaged in the store is refused before the
// rewind changes anything; it never says where to write.

const serviceSetup = useServiceSetup('oi-chunk-attack-');

function setup() {
  const { top, workspace, dataDir, service } = serviceSetup();
  const stores = () => path.join(dataDir, 'checkpoints', 'stores');
  const objects = () => new GitObjects(path.join(stores(), readdirSync(stores())[0] ?? ''));
  const recordFile = path.join(dataDir, 'checkpoints', 'conv1.json');
  return { top, workspace, service, objects, recordFile, conv: { id: 'conv1', workspace } };
}

type Record = { entries: Array<{ before: string; beforeChunks?: string | null }> };

describe('attack: chunk pointers and a damaged list of big files', () => {
  it("a file holding a big file's pointer bytes is rewound as those bytes, never as the big file", async () => {
    const { workspace, service, objects, recordFile, conv } = setup();
    const secret = randomBytes(CHUNKED_FROM + 4321);
    writeFileSync(path.join(workspace, 'big.bin'), secret);
    await service.before(conv, 'cell1');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as Record;
    const tree = await objects().listTree(record.entries[0]?.before ?? '');
    const pointer = tree.find((e) => e.path === 'big.bin')?.sha ?? '';
    const pointerBytes = await objects().readBlob(pointer);
    // The cell plants a file with exactly the pointer's bytes (so, in the store, the very same blob).
    writeFileSync(path.join(workspace, 'planted.bin'), pointerBytes);
    await service.after(conv, 'cell1', []);
    await service.before(conv, 'cell2');
    rmSync(path.join(workspace, 'planted.bin'));
    await service.after(conv, 'cell2', []);

    expect(await service.restore(conv, 'cell2', false)).toMatchObject({ status: 'restored' });
    expect(readFileSync(path.join(workspace, 'planted.bin')).equals(pointerBytes)).toBe(true);
    expect(readFileSync(path.join(workspace, 'big.bin')).equals(secret)).toBe(true);

    // Twin: read as a pointer, the planted bytes do give the big file — what a restore that recognised
    // pointers by their content would have written into planted.bin.
    const [, size = '', root = ''] = /^oi chunked file 1\nsize (\d+)\nchunks ([0-9a-f]{40})\n$/.exec(pointerBytes.toString('utf8')) ?? [];
    const followed = await readChunked(objects(), await chunkListOf(objects(), { pointer, root, size: Number(size) }));
    expect(followed.equals(secret)).toBe(true);
  });

  it('a damaged list of big files fails the rewind before it changes anything, and never names where to write', async () => {
    const { top, workspace, service, objects, recordFile, conv } = setup();
    const original = randomBytes(CHUNKED_FROM + 999);
    writeFileSync(path.join(workspace, 'big.bin'), original);
    await service.before(conv, 'cell1');
    writeFileSync(path.join(workspace, 'big.bin'), Buffer.concat([original.subarray(0, 5000), randomBytes(4096), original.subarray(9096)]));
    await service.after(conv, 'cell1', []);
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as Record;
    const real = (await readChunkIndex(objects(), record.entries[0]?.beforeChunks)).get('big.bin');
    if (!real) throw new Error('big.bin was not stored as chunks');

    // Someone with write access to the app's data folder plants a list that names a path outside the
    // workspace, and gives big.bin a size its chunks do not have.
    const plant = async (entries: Array<[string, typeof real]>) => {
      const holder = await writeChunkHolder(objects(), new Map(entries));
      const damaged = JSON.parse(readFileSync(recordFile, 'utf8')) as Record;
      if (damaged.entries[0]) damaged.entries[0].beforeChunks = holder;
      writeFileSync(recordFile, JSON.stringify(damaged));
    };
    await plant([
      ['../outside.bin', real],
      ['big.bin', { ...real, size: real.size + 1 }],
    ]);
    const before = treeState(workspace);
    await expect(service.restore(conv, 'cell1', false)).rejects.toThrow(/copy of a big file is damaged .*its pointer does not match/);
    expect(treeState(workspace)).toEqual(before);
    expect(existsSync(path.join(top, 'outside.bin'))).toBe(false);

    // With big.bin's row right, the rewind works; the row naming a path outside is never written.
    await plant([
      ['../outside.bin', real],
      ['big.bin', real],
    ]);
    expect(await service.restore(conv, 'cell1', false)).toMatchObject({ status: 'restored' });
    expect(readFileSync(path.join(workspace, 'big.bin')).equals(original)).toBe(true);
    expect(existsSync(path.join(top, 'outside.bin'))).toBe(false);
  });
});
