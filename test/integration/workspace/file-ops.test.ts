import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deleteInWorkspace, renameInWorkspace } from '../../../src-main/core/workspace/file-ops';
import { useTempWorkspace } from './support/temp-workspace';

describe('renaming and deleting workspace files', () => {
  const ws = useTempWorkspace(({ root, outside }) => {
    mkdirSync(path.join(root, 'dir'), { recursive: true });
    writeFileSync(path.join(root, 'a.txt'), 'A');
    writeFileSync(path.join(root, 'b.txt'), 'B');
    writeFileSync(path.join(root, 'dir', 'c.txt'), 'C');
    writeFileSync(path.join(outside, 'keep.txt'), 'keep');
  });

  it('renames and moves into new folders, answering with the new path', async () => {
    expect(await renameInWorkspace(ws.root, 'a.txt', 'renamed.txt')).toBe('renamed.txt');
    expect(await renameInWorkspace(ws.root, 'renamed.txt', 'new/place.txt')).toBe('new/place.txt');
    expect(readFileSync(path.join(ws.root, 'new', 'place.txt'), 'utf8')).toBe('A');
  });

  it('never overwrites an existing file', async () => {
    await expect(renameInWorkspace(ws.root, 'a.txt', 'b.txt')).rejects.toThrow(/already exists/);
    expect(readFileSync(path.join(ws.root, 'b.txt'), 'utf8')).toBe('B');
  });

  it('refuses to move out of the workspace or into a folder itself', async () => {
    await expect(renameInWorkspace(ws.root, 'a.txt', '../outside/a.txt')).rejects.toThrow(/above the workspace/);
    await expect(renameInWorkspace(ws.root, 'dir', 'dir/inner')).rejects.toThrow(/into itself/);
  });

  it('deletes files and folders, but a symlink only as a link', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'link'), 'dir');
    await deleteInWorkspace(ws.root, 'link');
    expect(existsSync(path.join(ws.outside, 'keep.txt'))).toBe(true);
    await deleteInWorkspace(ws.root, 'dir');
    expect(existsSync(path.join(ws.root, 'dir'))).toBe(false);
    await expect(deleteInWorkspace(ws.root, 'missing.txt')).rejects.toThrow(/does not exist/);
    await expect(deleteInWorkspace(ws.root, '.')).rejects.toThrow(/empty/);
  });
});
