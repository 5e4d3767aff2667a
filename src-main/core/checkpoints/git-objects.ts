import { errorMessage } from '@contract';
import { startAppProgram, SYSTEM_PATH } from '../programs/app-programs';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeBlob, writeObject } from './blob-writer';
import { markGc } from './store-lock';
import { encodeTree, type TreeEntry } from './tree-encoding';

/**
 * Git's object store, used through the `git` command, as the checkpoints' storage: content-addressed,
 * deduplicated (an unchanged file is one object however many checkpoints hold it), zlib-compressed,
 * and packed by `git gc`. The store is a bare repository in the app's data folder; it never has a
 * work tree and never touches a repository of the user's (docs/checkpoints.md says why git).
 *
 * Trees are written directly, not from an index, because an index cannot hold what a workspace may
 * contain and a checkpoint must keep: folders named `.git` (a nested repository, or the user's own),
 * and empty folders.
 */

export type { TreeEntry };

export interface FlatEntry {
  mode: string;
  type: 'blob' | 'tree';
  sha: string;
  /** '/'-separated, relative to the tree's root. */
  path: string;
}

/** The store's config, as `git init --bare` then `git config gc.auto 0` write it. */
const STORE_CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n[gc]\n\tauto = 0\n';

/** Git's empty tree: an empty folder. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export class GitObjects {
  constructor(readonly gitDir: string) {}

  /**
   * Makes the bare repository, written here rather than by `git init` and `git config`: two process
   * starts on the first cell's path in every new workspace (issue 37: 20-70 ms on a loaded machine),
   * for five small files and folders. It is what `git init --bare` writes, less the hook samples and
   * description, with `gc.auto` off (loose objects are zlib-compressed already; packs come from gc,
   * checkpoints.ts, when pruning). `objects` comes last, by a rename: a store whose `objects` exists
   * is whole, and one cut short (a crash) is made again over what it left.
   */
  async init(): Promise<void> {
    const objects = path.join(this.gitDir, 'objects');
    const exists = await stat(objects).then(
      () => true,
      () => false,
    );
    if (exists) return;
    await mkdir(path.join(this.gitDir, 'refs', 'heads'), { recursive: true, mode: 0o700 });
    await mkdir(path.join(this.gitDir, 'refs', 'tags'), { recursive: true, mode: 0o700 });
    await writeFile(path.join(this.gitDir, 'HEAD'), 'ref: refs/heads/master\n', { mode: 0o600 });
    await writeFile(path.join(this.gitDir, 'config'), STORE_CONFIG, { mode: 0o600 });
    const making = `${objects}.${randomBytes(6).toString('hex')}.tmp`;
    await mkdir(path.join(making, 'pack'), { recursive: true, mode: 0o700 });
    await mkdir(path.join(making, 'info'), { mode: 0o700 });
    await rename(making, objects);
  }

  /**
   * Writes trees bottom-up; `make` calls `write` for each tree, children first. Trees are encoded here
   * (tree-encoding.ts) and stored like blobs, without starting git: a checkpoint that changed ten files
   * writes a dozen small trees, and a process start per checkpoint cost more than all of them.
   */
  async writeTrees(make: (write: (entries: TreeEntry[]) => Promise<string>) => Promise<string>): Promise<string> {
    return make((entries) => (entries.length === 0 ? Promise.resolve(EMPTY_TREE) : writeObject(this.gitDir, 'tree', encodeTree(entries))));
  }

  /** Every entry of a tree, recursively, folders included (so empty ones are known). */
  async listTree(tree: string): Promise<FlatEntry[]> {
    const out = await this.git(['ls-tree', '-r', '-t', '-z', '--full-tree', tree]);
    const entries: FlatEntry[] = [];
    for (const record of out.split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [mode = '', type = '', sha = ''] = record.slice(0, tab).split(' ');
      entries.push({ mode, type: type as FlatEntry['type'], sha, path: record.slice(tab + 1) });
    }
    return entries;
  }

  /** Sizes of blobs, by id. */
  async sizes(shas: string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    if (shas.length === 0) return sizes;
    const out = await this.git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], { input: shas.map((s) => `${s}\n`).join('') });
    for (const line of out.split('\n')) {
      const [sha, size] = line.split(' ');
      if (sha && size && /^\d+$/.test(size)) sizes.set(sha, Number(size));
    }
    return sizes;
  }

  /** A blob's bytes. */
  async readBlob(sha: string): Promise<Buffer> {
    return this.gitBuffer(['cat-file', 'blob', sha]);
  }

  /**
   * Blobs' bytes, in the order asked (one `git cat-file --batch` for all). Each answer's header is
   * checked — the id asked, a blob, its size — so a damaged or missing object is an error, never
   * bytes taken from the wrong place.
   */
  async readBlobs(shas: readonly string[]): Promise<Buffer[]> {
    if (shas.length === 0) return [];
    for (const sha of shas) if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not an object id: ${JSON.stringify(sha)}`);
    const out = await this.gitBuffer(['cat-file', '--batch'], { input: shas.map((s) => `${s}\n`).join('') });
    const blobs: Buffer[] = [];
    let at = 0;
    for (const sha of shas) {
      const eol = out.indexOf(0x0a, at);
      const header = eol < 0 ? '' : out.toString('latin1', at, eol);
      const match = /^([0-9a-f]{40}) blob (\d+)$/.exec(header);
      if (!match || match[1] !== sha) throw new Error(`the store cannot give object ${sha} (${header.slice(0, 80) || 'no answer'})`);
      const size = Number(match[2]);
      const start = eol + 1;
      if (start + size + 1 > out.length || out[start + size] !== 0x0a) throw new Error(`the store gave a short object ${sha}`);
      blobs.push(out.subarray(start, start + size));
      at = start + size + 1;
    }
    return blobs;
  }

  /** A unified diff of two blobs, as git writes it (binary files are named as such). */
  async diffBlobs(a: string | null, b: string | null, path: string): Promise<string> {
    const left = a ?? (await writeBlob(this.gitDir, Buffer.alloc(0)));
    const right = b ?? (await writeBlob(this.gitDir, Buffer.alloc(0)));
    const out = await this.git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', `--src-prefix=a/`, `--dst-prefix=b/`, left, right]);
    return out.replace(/^(---|\+\+\+) [ab]\/[0-9a-f]{40}$/gm, (_m, side: string) => `${side} ${side === '---' ? 'a' : 'b'}/${path}`);
  }

  /** Packs loose objects and drops what no checkpoint refers to (refs list the live trees and blobs). */
  async gc(liveTrees: string[], liveBlobs: string[] = []): Promise<void> {
    await this.git(['update-ref', '-d', 'refs/checkpoints/live']).catch(() => undefined);
    if (liveTrees.length + liveBlobs.length > 0) {
      // One commit-less ref per live tree would be thousands of refs; a tree listing them all is one
      // object. The blobs are the permission manifests kept beside trees (permissions.ts).
      const holder = await this.writeTrees((write) =>
        write([
          ...liveTrees.map((sha, i): TreeEntry => ({ mode: '040000', type: 'tree', sha, name: `t${i}` })),
          ...liveBlobs.map((sha, i): TreeEntry => ({ mode: '100644', type: 'blob', sha, name: `m${i}` })),
        ]),
      );
      await this.git(['update-ref', 'refs/checkpoints/live', holder]);
    }
    await this.git(['-c', 'gc.pruneExpire=now', 'gc', '--quiet', '--prune=now']);
    await markGc(this.gitDir);
  }

  git(args: string[], opts: { cwd?: string; input?: string | Buffer } = {}): Promise<string> {
    return this.gitBuffer(args, opts).then((b) => b.toString('utf8'));
  }

  private gitBuffer(args: string[], opts: { cwd?: string; input?: string | Buffer } = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let child;
      try {
        child = startAppProgram('git', args, {
          cwd: opts.cwd ?? this.gitDir,
          env: gitEnv(this.gitDir),
          stdio: ['pipe', 'pipe', 'pipe'],
        });
      } catch (err) {
        return reject(new Error(`git could not start (is git installed?): ${errorMessage(err)}`));
      }
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', (e) => reject(new Error(`git could not start (is git installed?): ${e.message}`)));
      child.on('close', (code) =>
        code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args[0]} failed: ${err.trim() || `exit ${code}`}`)),
      );
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input ?? '');
    });
  }
}

/**
 * Only our store: no user config or hooks, no repository found by walking up from a folder, no
 * replace objects, no prompts. The workspace's files are read as data, never run.
 */
function gitEnv(gitDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    // git starts helpers by name (gc's repack…): from the system's folders only, never a workspace's.
    PATH: SYSTEM_PATH,
    HOME: process.env.HOME,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_CEILING_DIRECTORIES: '/',
    GIT_DIR: gitDir,
  };
  return env;
}
