import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitObjects } from '../../../src-main/core/checkpoints/git-objects';

// A checkpoint store is made in-process, not by `git init` (git-objects.ts, issue 37): the real git
// must take it for the bare repository `git init --bare` makes, with gc.auto off, and read, write and
// pack it; a store cut short before its `objects` folder is made again whole.

const top = mkdtempSync(path.join(os.tmpdir(), 'oi-store-init-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const git = (gitDir: string, ...args: string[]) =>
  execFileSync('git', args, {
    env: { PATH: process.env.PATH ?? '', GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  })
    .toString()
    .trim();

describe('a checkpoint store made in-process', () => {
  it('is the bare repository git init makes, with gc.auto off, and git writes, reads and packs it', async () => {
    const gitDir = path.join(top, 'made.git');
    const objects = new GitObjects(gitDir);
    await objects.init();
    expect(git(gitDir, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(git(gitDir, 'config', 'gc.auto')).toBe('0');
    expect(git(gitDir, 'config', 'core.repositoryformatversion')).toBe('0');
    const ws = path.join(top, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    const blob = git(gitDir, 'hash-object', '-w', path.join(ws, 'a.txt'));
    const tree = await objects.writeTrees((write) => write([{ mode: '100644', type: 'blob', name: 'a.txt', sha: blob }]));
    expect((await objects.listTree(tree)).map((e) => e.path)).toEqual(['a.txt']);
    await objects.gc([tree], []);
    // Packed: no loose object left, the tree and its blob (and gc's holder of the live ones) in the pack.
    const counts = git(gitDir, 'count-objects', '-v');
    expect(counts).toMatch(/^count: 0$/m);
    expect(counts).toMatch(/^packs: 1$/m);
    expect((await objects.listTree(tree)).map((e) => e.path)).toEqual(['a.txt']);
  });

  it('makes a store cut short (no objects folder yet) whole again, and leaves a whole one as it is', async () => {
    const gitDir = path.join(top, 'cut.git');
    mkdirSync(path.join(gitDir, 'refs'), { recursive: true });
    writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs');
    await new GitObjects(gitDir).init();
    expect(git(gitDir, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(existsSync(path.join(gitDir, 'objects', 'pack'))).toBe(true);
    writeFileSync(
      path.join(gitDir, 'config'),
      '[core]\n\trepositoryformatversion = 0\n\tbare = true\n[gc]\n\tauto = 0\n[oi]\n\tkept = yes\n',
    );
    await new GitObjects(gitDir).init();
    expect(git(gitDir, 'config', 'oi.kept')).toBe('yes');
  });
});
