import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { confine, WorkspacePathError, workspaceSegments } from '../../../src-main/core/workspace/confine';
import { useTempWorkspace } from './support/temp-workspace';

describe('confining UI paths to the workspace', () => {
  const ws = useTempWorkspace(({ root, outside }) => {
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    writeFileSync(path.join(root, 'sub', 'a.txt'), 'inside');
  });

  it('accepts plain relative paths and normalises separators', async () => {
    expect(workspaceSegments('sub//a.txt')).toEqual(['sub', 'a.txt']);
    expect(workspaceSegments('./sub/./a.txt')).toEqual(['sub', 'a.txt']);
    expect(await confine(ws.root, 'sub/a.txt', { followFinal: true })).toMatch(/sub[\\/]a\.txt$/);
    // A name that merely starts with two dots is a name, not a way up.
    expect(workspaceSegments('..hidden')).toEqual(['..hidden']);
  });

  it.each([
    ['../outside/secret.txt', /goes above/],
    ['sub/../../outside', /goes above/],
    ['/etc/passwd', /absolute/],
    ['\\\\server\\share', /absolute/],
    ['C:\\Windows', /absolute/],
    ['nul', /device name/],
    ['sub/CON.txt', /device name/],
    ['com1', /device name/],
    ['LPT3.log', /device name/],
    ['a\0b', /NUL/],
  ])('refuses %j', async (rel, why) => {
    await expect(confine(ws.root, rel, { followFinal: true })).rejects.toThrow(why);
    await expect(confine(ws.root, rel, { followFinal: true })).rejects.toBeInstanceOf(WorkspacePathError);
  });

  it('refuses a symlink that points outside, for reading', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    await expect(confine(ws.root, 'link.txt', { followFinal: true })).rejects.toThrow(/outside the workspace/);
    // Acting on the link itself (delete, rename) stays inside and is allowed.
    expect(await confine(ws.root, 'link.txt', { followFinal: false })).toMatch(/link\.txt$/);
  });

  it('refuses paths through a symlinked folder that leads outside', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'escape'), 'dir');
    await expect(confine(ws.root, 'escape/secret.txt', { followFinal: false })).rejects.toThrow(/outside the workspace/);
    await expect(confine(ws.root, 'escape/new-file.txt', { followFinal: false })).rejects.toThrow(/outside the workspace/);
  });

  it('allows symlinks that stay inside, and targets that do not exist yet', async () => {
    symlinkSync(path.join(ws.root, 'sub'), path.join(ws.root, 'alias'), 'dir');
    expect(await confine(ws.root, 'alias/a.txt', { followFinal: true })).toMatch(/sub[\\/]a\.txt$/);
    expect(await confine(ws.root, 'new/deeper/file.txt', { followFinal: false })).toMatch(/new[\\/]deeper[\\/]file\.txt$/);
  });

  it('refuses a dangling symlink for reading', async () => {
    symlinkSync(path.join(ws.outside, 'not-yet'), path.join(ws.root, 'dangling'));
    await expect(confine(ws.root, 'dangling', { followFinal: true })).rejects.toThrow(/does not exist/);
  });
});
