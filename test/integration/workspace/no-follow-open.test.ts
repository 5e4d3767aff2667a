import { constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  holdFolder,
  NoFollowError,
  openBeneath,
  removeBeneath,
  renameBeneath,
  writeNewFileBeneath,
} from '../../../src-main/core/fs/no-follow-open';
import { useTempWorkspace } from './support/temp-workspace';

// The walk that opens files inside folders other code controls: a link at any component is refused,
// never followed, and nothing is created outside.

describe('no-follow open', () => {
  const ws = useTempWorkspace();

  it('creates missing folders and a new file', async () => {
    await writeNewFileBeneath(ws.root, ['.oi', 'outputs', 'run.log'], 'hello', { create: true });
    expect(readFileSync(path.join(ws.root, '.oi', 'outputs', 'run.log'), 'utf8')).toBe('hello');
  });

  it.each([
    ['the first folder', ['.oi', 'outputs', 'run.log'], '.oi'],
    ['a middle folder', ['.oi', 'outputs', 'run.log'], '.oi/outputs'],
  ])('refuses a link at %s and writes nothing outside', async (_label, segments, linked) => {
    const linkAt = path.join(ws.root, linked);
    mkdirSync(path.dirname(linkAt), { recursive: true });
    symlinkSync(ws.outside, linkAt);
    await expect(writeNewFileBeneath(ws.root, segments, 'attacker', { create: true })).rejects.toBeInstanceOf(NoFollowError);
    expect(readdirSync(ws.outside)).toEqual([]);
    // The twin: a plain write through the same path lands outside.
    mkdirSync(path.join(ws.outside, linked === '.oi' ? 'outputs' : ''), { recursive: true });
    await writeFile(path.join(ws.root, ...segments), 'attacker');
    expect(readdirSync(ws.outside, { recursive: true }).length).toBeGreaterThan(0);
  });

  it('refuses a link as the file itself, and `replace` removes the link, not its target', async () => {
    const victim = path.join(ws.outside, 'bashrc');
    writeFileSync(victim, 'original');
    symlinkSync(victim, path.join(ws.root, 'cell.sh'));
    await expect(openBeneath(ws.root, ['cell.sh'], constants.O_WRONLY | constants.O_TRUNC)).rejects.toMatchObject({ reason: 'symlink' });
    await writeNewFileBeneath(ws.root, ['cell.sh'], 'code', { replace: true });
    expect(readFileSync(victim, 'utf8')).toBe('original');
    expect(lstatSync(path.join(ws.root, 'cell.sh')).isFile()).toBe(true);
    expect(readFileSync(path.join(ws.root, 'cell.sh'), 'utf8')).toBe('code');
  });

  it('keeps writing into the folder it holds even after the path is swapped for a link', async () => {
    mkdirSync(path.join(ws.root, 'a'));
    const folder = await holdFolder(ws.root, ['a']);
    try {
      // The folder moves and a link to outside takes its name: the held folder is still the same one.
      await renameBeneath(ws.root, ['a'], ['moved']);
      symlinkSync(ws.outside, path.join(ws.root, 'a'));
      writeFileSync(folder.child('x'), 'in the held folder');
    } finally {
      await folder.close();
    }
    expect(readdirSync(ws.outside)).toEqual([]);
    expect(readFileSync(path.join(ws.root, 'moved', 'x'), 'utf8')).toBe('in the held folder');
  });

  it('refuses names that could leave the folder', async () => {
    for (const bad of ['..', '.', '', 'a/b']) {
      await expect(writeNewFileBeneath(ws.root, [bad], 'x')).rejects.toMatchObject({ reason: 'bad-name' });
    }
  });

  it('removes a tree without following the links in it', async () => {
    writeFileSync(path.join(ws.outside, 'keep.txt'), 'keep');
    mkdirSync(path.join(ws.root, 'tree', 'sub'), { recursive: true });
    writeFileSync(path.join(ws.root, 'tree', 'sub', 'f.txt'), 'x');
    symlinkSync(ws.outside, path.join(ws.root, 'tree', 'link-to-outside'));
    symlinkSync(path.join(ws.outside, 'keep.txt'), path.join(ws.root, 'tree', 'sub', 'file-link'));
    await removeBeneath(ws.root, ['tree']);
    expect(existsSync(path.join(ws.root, 'tree'))).toBe(false);
    expect(readFileSync(path.join(ws.outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('refuses to remove through a linked parent', async () => {
    writeFileSync(path.join(ws.outside, 'keep.txt'), 'keep');
    symlinkSync(ws.outside, path.join(ws.root, 'dir'));
    await expect(removeBeneath(ws.root, ['dir', 'keep.txt'])).rejects.toBeInstanceOf(NoFollowError);
    expect(existsSync(path.join(ws.outside, 'keep.txt'))).toBe(true);
  });

  it('renames only between held folders and never over an existing name', async () => {
    writeFileSync(path.join(ws.root, 'a.txt'), 'a');
    writeFileSync(path.join(ws.root, 'b.txt'), 'b');
    await expect(renameBeneath(ws.root, ['a.txt'], ['b.txt'])).rejects.toMatchObject({ code: 'EEXIST' });
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    await expect(renameBeneath(ws.root, ['a.txt'], ['out', 'a.txt'])).rejects.toBeInstanceOf(NoFollowError);
    expect(readdirSync(ws.outside)).toEqual([]);
    await renameBeneath(ws.root, ['a.txt'], ['new', 'c.txt'], { create: true });
    expect(readFileSync(path.join(ws.root, 'new', 'c.txt'), 'utf8')).toBe('a');
  });
});
