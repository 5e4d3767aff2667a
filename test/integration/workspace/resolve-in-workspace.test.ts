import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspacePathError } from '../../../src-main/core/workspace/confine';
import { openBeneath } from '../../../src-main/core/fs/no-follow-open';
import { openWorkspaceEntry } from '../../../src-main/core/workspace/open-workspace-file';
import { resolveInWorkspace } from '../../../src-main/core/workspace/resolve-in-workspace';
import { useTempWorkspace } from './support/temp-workspace';

// The translation from a UI path to real names under the root: links inside are resolved by us,
// lexically; links out, loops and `..` are refused. (The race itself: test/security/attacks/folder-swap-race.)

describe('resolving a workspace path without letting the kernel follow links', () => {
  const ws = useTempWorkspace(({ root, outside }) => {
    mkdirSync(path.join(root, 'runs', 'deep'), { recursive: true });
    writeFileSync(path.join(root, 'runs', '7.csv'), 'seven');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
  });

  const names = async (rel: string, followFinal = true) => (await resolveInWorkspace(ws.root, rel, { followFinal })).segments;

  it('resolves relative and absolute links that stay inside, including through ..', async () => {
    symlinkSync('runs/7.csv', path.join(ws.root, 'latest.csv'));
    symlinkSync(path.join(ws.root, 'runs'), path.join(ws.root, 'alias'));
    symlinkSync('../7.csv', path.join(ws.root, 'runs', 'deep', 'up.csv'));
    expect(await names('latest.csv')).toEqual(['runs', '7.csv']);
    expect(await names('alias/7.csv')).toEqual(['runs', '7.csv']);
    expect(await names('alias/deep/up.csv')).toEqual(['runs', '7.csv']);
    // The final link itself, for rename and delete.
    expect(await names('latest.csv', false)).toEqual(['latest.csv']);
    expect(await names('alias/deep/up.csv', false)).toEqual(['runs', 'deep', 'up.csv']);
    const opened = await openWorkspaceEntry(ws.root, 'alias/deep/up.csv');
    expect((await opened.handle.readFile()).toString()).toBe('seven');
    await opened.handle.close();
  });

  it('refuses links that leave the root, by any route', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'abs-out'));
    symlinkSync('../outside/secret.txt', path.join(ws.root, 'rel-out'));
    symlinkSync('../../..', path.join(ws.root, 'runs', 'deep', 'up3'));
    symlinkSync(ws.outside, path.join(ws.root, 'dir-out'));
    for (const rel of ['abs-out', 'rel-out', 'runs/deep/up3/outside/secret.txt', 'dir-out/secret.txt', 'dir-out/new.txt']) {
      await expect(names(rel), rel).rejects.toBeInstanceOf(WorkspacePathError);
    }
    // Named as the link itself (delete, rename), a link out is fine: it is acted on, not followed.
    expect(await names('dir-out', false)).toEqual(['dir-out']);
  });

  it('refuses a loop of links, and returns missing names as named', async () => {
    symlinkSync('b', path.join(ws.root, 'a'));
    symlinkSync('a', path.join(ws.root, 'b'));
    await expect(names('a')).rejects.toThrow(/too many symbolic links/);
    expect(await names('runs/new/file.txt')).toEqual(['runs', 'new', 'file.txt']);
    await expect(openWorkspaceEntry(ws.root, 'runs/new/file.txt')).rejects.toMatchObject({ refusal: 'missing' });
  });

  it('opens nothing through a folder that is a link at open time, even one that resolved inside before', async () => {
    const { realRoot, segments } = await resolveInWorkspace(ws.root, 'runs/7.csv', { followFinal: true });
    expect(segments).toEqual(['runs', '7.csv']);
    // Now the folder is swapped for a link out (what the race does between the two steps).
    renameSync(path.join(ws.root, 'runs'), path.join(ws.root, 'runs-moved'));
    symlinkSync(ws.outside, path.join(ws.root, 'runs'));
    writeFileSync(path.join(ws.outside, '7.csv'), 'outside');
    await expect(openBeneath(realRoot, segments, 0)).rejects.toMatchObject({ reason: 'symlink' });
    await expect(openWorkspaceEntry(ws.root, 'runs/7.csv')).rejects.toMatchObject({ refusal: 'outside' });
  });
});
