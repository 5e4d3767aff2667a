import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { holdFolder, type HeldFolder } from '../fs/no-follow-open';

/**
 * The folders of a workspace held open while a checkpoint reads their files, so that each file is one
 * open inside its folder (without following a link, no-follow-open.ts) rather than a walk from the
 * root per file. At most MAX_HELD are open at once; one no file is being opened in goes first.
 */
const MAX_HELD = 64;

interface Held {
  folder: Promise<HeldFolder>;
  users: number;
}

export class HeldFolders {
  private readonly held = new Map<string, Held>();

  constructor(private readonly root: string) {}

  /** Opens `relPath` ('/'-separated) for reading, refusing a link at any component. */
  async openFile(relPath: string): Promise<FileHandle> {
    const segments = relPath.split('/');
    const name = segments.pop() ?? '';
    const key = segments.join('/');
    let entry = this.held.get(key);
    if (!entry) {
      entry = { folder: holdFolder(this.root, segments), users: 0 };
      this.held.set(key, entry);
      this.evict();
    } else {
      // Most recently used last.
      this.held.delete(key);
      this.held.set(key, entry);
    }
    entry.users++;
    try {
      const folder = await entry.folder;
      return await open(folder.child(name), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | folder.openFlags);
    } finally {
      entry.users--;
    }
  }

  async close(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    await Promise.all(all.map((h) => h.folder.then((f) => f.close()).catch(() => undefined)));
  }

  private evict(): void {
    for (const [key, h] of this.held) {
      if (this.held.size <= MAX_HELD) return;
      if (h.users > 0) continue;
      this.held.delete(key);
      void h.folder.then((f) => f.close()).catch(() => undefined);
    }
  }
}
