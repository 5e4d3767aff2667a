import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Schedule } from '@contract';

// Folder triggers: a new file in a watched folder starts the task ("run when a new CSV lands in
// ~/inbox"), while the app is open — no OS scheduler here watches folders for us. The folder's
// listing is compared with what was there: a name that was not is new. Nothing in the folder is run
// or followed by the app; the file's path is handed to the run (in its message), whose code runs under
// the task's policy, in the sandbox unless the task opted out.

/** How long a new file is left alone before the run starts: a file being copied in is not cut short. */
const SETTLE_MS = 1000;

interface Watched {
  folder: string;
  watcher: FSWatcher;
  known: Set<string>;
}

export class FolderTriggers {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly fire: (schedule: Schedule, file: string) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Watches the folder of every folder task in `schedules`, and stops watching those gone. */
  async sync(schedules: Schedule[]): Promise<void> {
    const wanted = new Map(
      schedules.flatMap((s) => (s.when.kind === 'folder' ? [[s.id, { schedule: s, folder: s.when.folder }] as const] : [])),
    );
    for (const [id, w] of this.watched)
      if (wanted.get(id)?.folder !== w.folder) {
        w.watcher.close();
        this.watched.delete(id);
      }
    for (const [id, { schedule, folder }] of wanted) {
      if (this.watched.has(id)) continue;
      try {
        const known = new Set(await readdir(folder));
        const entry: Watched = { folder, known, watcher: watch(folder, () => void this.look(schedule, entry)) };
        entry.watcher.on('error', () => undefined);
        this.watched.set(id, entry);
      } catch (err) {
        this.log(`${schedule.name}: cannot watch ${folder}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private async look(schedule: Schedule, entry: Watched): Promise<void> {
    const names = await readdir(entry.folder).catch(() => null);
    if (!names) return;
    const fresh = names.filter((n) => !entry.known.has(n));
    entry.known = new Set(names);
    for (const name of fresh) {
      // Hidden and partial files (editors' and downloads' temporaries) are not arrivals.
      if (name.startsWith('.') || /\.(tmp|part|crdownload|swp)$/i.test(name)) continue;
      const file = path.join(entry.folder, name);
      // lstat: a link planted there is not followed to decide anything.
      const info = await lstat(file).catch(() => null);
      if (!info?.isFile()) continue;
      setTimeout(() => this.fire(schedule, file), SETTLE_MS).unref();
    }
  }

  close(): void {
    for (const w of this.watched.values()) w.watcher.close();
    this.watched.clear();
  }
}
