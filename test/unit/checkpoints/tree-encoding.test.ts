import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitObjects, type TreeEntry } from '../../../src-main/core/checkpoints/git-objects';
import { encodeTree } from '../../../src-main/core/checkpoints/tree-encoding';

// Trees are written by the app, not by `git mktree` (tree-encoding.ts): each case here is written
// both ways and must get git's id, and the app's tree must pass `git fsck`.

const top = mkdtempSync(path.join(tmpdir(), 'oi-tree-encoding-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));
/** A new bare store `name` in the test's folder, and a way to run git on it (its output, trimmed). */
function bareStore(name: string): { gitDir: string; git: (args: string[], input?: string) => string } {
  const gitDir = path.join(top, name);
  execFileSync('git', ['init', '--bare', '--quiet', gitDir]);
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir }, input })
      .toString()
      .trim();
  return { gitDir, git };
}
const { gitDir, git } = bareStore('store.git');

const sha = () => createHash('sha1').update(randomBytes(8)).digest('hex');
const EMPTY = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const cases: Record<string, TreeEntry[]> = {
  'folder sorted as if it ended in a slash': [
    { mode: '040000', type: 'tree', sha: EMPTY, name: 'a' },
    { mode: '100644', type: 'blob', sha: sha(), name: 'a.txt' },
    { mode: '100644', type: 'blob', sha: sha(), name: 'a-b' },
    { mode: '100644', type: 'blob', sha: sha(), name: 'a0' },
  ],
  'every mode, names with spaces, dots and non-ASCII': [
    { mode: '100755', type: 'blob', sha: sha(), name: 'run me.sh' },
    { mode: '120000', type: 'blob', sha: sha(), name: 'link' },
    { mode: '040000', type: 'tree', sha: EMPTY, name: '.git' },
    { mode: '100644', type: 'blob', sha: sha(), name: 'Zeta' },
    { mode: '100644', type: 'blob', sha: sha(), name: 'été.txt' },
    { mode: '100644', type: 'blob', sha: sha(), name: '日本語' },
    { mode: '100644', type: 'blob', sha: sha(), name: '.hidden' },
  ],
  'one entry': [{ mode: '100644', type: 'blob', sha: sha(), name: 'only' }],
};

describe('tree encoding', () => {
  for (const [name, entries] of Object.entries(cases)) {
    it(`matches git mktree: ${name}`, async () => {
      const theirs = git(['mktree', '--missing', '-z'], entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}\0`).join(''));
      const objects = new GitObjects(gitDir);
      const ours = await objects.writeTrees((write) => write(entries));
      expect(ours).toBe(theirs);
    });
  }

  it('writes trees git reads back and fsck accepts', async () => {
    // A store of its own: fsck also checks the trees above, and one holds a '.git' folder on purpose.
    const { gitDir: own, git } = bareStore('fsck.git');
    const objects = new GitObjects(own);
    const blob = git(['hash-object', '-w', '--stdin'], 'hello\n');
    const root = await objects.writeTrees(async (write) => {
      const inner = await write([{ mode: '100644', type: 'blob', sha: blob, name: 'x.txt' }]);
      return write([
        { mode: '040000', type: 'tree', sha: inner, name: 'sub' },
        { mode: '100644', type: 'blob', sha: blob, name: 'sub.txt' },
      ]);
    });
    expect((await objects.listTree(root)).map((e) => e.path)).toEqual(['sub.txt', 'sub', 'sub/x.txt']);
    git(['update-ref', 'refs/test', root]);
    expect(() => git(['fsck', '--strict', '--no-dangling'])).not.toThrow();
  });

  it('refuses names a tree cannot hold', () => {
    expect(() => encodeTree([{ mode: '100644', type: 'blob', sha: sha(), name: 'a/b' }])).toThrow(/not a tree entry name/);
    expect(() => encodeTree([{ mode: '100644', type: 'blob', sha: 'nope', name: 'a' }])).toThrow(/not an object id/);
  });
});
