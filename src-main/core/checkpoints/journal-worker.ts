import { lstatSync, readdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { isIgnored, isRegenerated, neverInside, rulesFor, watchIgnoredFolder, withOwnRules, type IgnoreRules } from './workspace-scan';
import type { JournalReply, JournalRequest } from './journal-protocol';

/**
 * The change journal's thread (change-journal.ts says why it exists). It has its own event loop, so
 * its file watches share one inotify queue that nothing else in the app uses: every event the kernel
 * queued for it arrives here and is counted. That count is what makes a lost event detectable — the
 * kernel drops events only once its queue holds `max_queued_events` unread ones, and those are then
 * all delivered, so fewer events than that since a workspace's last checkpoint means none was lost.
 */

interface Journal {
  root: string;
  watchers: Map<string, FSWatcher>;
  dirty: Set<string>;
  /** A watch failed or too many folders: the next take must walk everything. */
  broken: boolean;
  eventsAtTake: number;
  maxFolders: number;
  overflowAt: number;
  /** Ignored folders watched inside, as a checkpoint may record them whole (workspace-scan.ts). */
  ignoredTops: Set<string>;
  /**
   * Ignored folders too big to record, watched themselves only: a name made or removed directly in
   * one moves its fingerprint, as a whole walk would see.
   */
  shallow: Set<string>;
}

const journals = new Map<string, Journal>();
let events = 0;

const QUEUE = readQueueLimit();

function readQueueLimit(): number {
  try {
    const n = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isFinite(n) && n > 0 ? n : 16384;
  } catch {
    return 16384;
  }
}

function stop(journal: Journal): void {
  for (const w of journal.watchers.values()) w.close();
  journal.watchers.clear();
}

/**
 * Watches folder `rel` and every folder below it that a checkpoint would record; `rules` are those
 * above `rel`. `inIgnored`: `rel` is inside an ignored folder watched whole (no rules apply there).
 */
function watchTree(journal: Journal, rel: string, rules: IgnoreRules, inIgnored = false, shallow = false): void {
  if (journal.broken) return;
  const full = rel ? path.join(journal.root, rel) : journal.root;
  if (!journal.watchers.has(rel)) {
    if (journal.watchers.size >= journal.maxFolders) {
      journal.broken = true;
      stop(journal);
      return;
    }
    try {
      // fs.watch resolves links: a folder swapped for a link just before this line gets a watch on
      // where it points. That only adds dirty paths (each looked at again without following links).
      const w = watch(full, { persistent: true }, (type, name) => onEvent(journal, rel, type, name));
      w.on('error', () => {
        journal.broken = true;
      });
      journal.watchers.set(rel, w);
    } catch {
      // Gone already (its parent's event marks it), or out of watches: either way, walk next time.
      if (folderStillThere(full)) journal.broken = true;
      return;
    }
  }
  if (shallow) return;
  let names: Array<{ name: string; isDirectory(): boolean }>;
  try {
    names = readdirSync(full, { withFileTypes: true });
  } catch {
    return;
  }
  const scoped = inIgnored ? rules : withOwnRules(journal.root, rel, rules);
  for (const d of names) {
    // A link to a folder is a link (d_type), never followed.
    if (!d.isDirectory()) continue;
    watchChild(journal, rel ? `${rel}/${d.name}` : d.name, scoped, inIgnored);
  }
}

/** Watches a folder found inside watched folder `parent`, if a checkpoint may record it. */
function watchChild(journal: Journal, child: string, rules: IgnoreRules, inIgnored: boolean): void {
  if (inIgnored) {
    if (!neverInside(child)) watchTree(journal, child, rules, true);
  } else if (!isIgnored(rules, child, true)) {
    watchTree(journal, child, rules);
  } else if (watchIgnoredFolder(journal.root, child)) {
    journal.ignoredTops.add(child);
    watchTree(journal, child, rules, true);
  } else if (!isRegenerated(child)) {
    journal.shallow.add(child);
    watchTree(journal, child, rules, false, true);
  }
}

function insideIgnored(journal: Journal, rel: string): boolean {
  for (const top of journal.ignoredTops) if (rel === top || rel.startsWith(`${top}/`)) return true;
  return false;
}

function folderStillThere(full: string): boolean {
  try {
    return lstatSync(full).isDirectory();
  } catch {
    return false;
  }
}

function onEvent(journal: Journal, rel: string, type: string, name: string | null): void {
  events++;
  if (name === null) {
    journal.dirty.add(rel);
    return;
  }
  const child = rel ? `${rel}/${name}` : name;
  journal.dirty.add(child);
  // The folder itself went (deleted or moved): its own path is dirty too.
  if (rel && name === path.basename(rel)) journal.dirty.add(rel);
  if (type === 'rename' && !journal.watchers.has(child) && !journal.shallow.has(rel)) {
    const full = path.join(journal.root, child);
    if (folderStillThere(full)) {
      // A new folder: watched from now on; whatever was made in it before the watch is covered by
      // the folder being dirty (the next checkpoint scans it whole).
      const inIgnored = insideIgnored(journal, rel);
      watchChild(journal, child, inIgnored ? [] : rulesFor(journal.root, rel), inIgnored);
    }
  }
}

function handle(req: JournalRequest): JournalReply | Promise<JournalReply> {
  if (req.op === 'watch') {
    const old = journals.get(req.root);
    if (old) stop(old);
    const journal: Journal = {
      root: req.root,
      watchers: new Map(),
      dirty: new Set(),
      broken: false,
      eventsAtTake: events,
      maxFolders: req.maxFolders,
      overflowAt: req.overflowAt ?? Math.floor(QUEUE / 2),
      ignoredTops: new Set(),
      shallow: new Set(),
    };
    journals.set(req.root, journal);
    watchTree(journal, '', []);
    return { id: req.id, watching: !journal.broken, folders: journal.watchers.size };
  }
  if (req.op === 'stop') {
    const journal = journals.get(req.root);
    if (journal) stop(journal);
    journals.delete(req.root);
    return { id: req.id, watching: false, folders: 0 };
  }
  // take: first let the loop read whatever the kernel has queued (writes made before this request
  // was sent are queued before it), then hand over the dirty set and start a new one.
  return new Promise((resolve) =>
    setImmediate(() =>
      setImmediate(() => {
        const journal = journals.get(req.root);
        if (!journal) return resolve({ id: req.id, whole: true, reason: 'not watched' });
        const seen = events - journal.eventsAtTake;
        journal.eventsAtTake = events;
        const dirty = [...journal.dirty];
        journal.dirty = new Set();
        if (journal.broken) return resolve({ id: req.id, whole: true, reason: 'a watch failed or the folder has too many folders' });
        if (seen >= journal.overflowAt)
          return resolve({ id: req.id, whole: true, reason: `${seen} events since the last checkpoint (events may have been lost)` });
        resolve({ id: req.id, whole: false, dirty, watchedIgnored: [...journal.ignoredTops] });
      }),
    ),
  );
}

parentPort?.on('message', (req: JournalRequest) => {
  void Promise.resolve()
    .then(() => handle(req))
    .catch((err: unknown) => ({ id: req.id, whole: true as const, reason: `journal error: ${(err as Error).message}` }))
    .then((reply) => parentPort?.postMessage(reply));
});
