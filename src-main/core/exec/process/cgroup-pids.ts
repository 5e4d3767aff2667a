import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from './process-alive';

// A per-session cap on processes through the cgroup "pids" controller, where this process may
// create cgroups (root, or a delegated cgroup v2 subtree). Unlike RLIMIT_NPROC it counts only the
// session's own processes and binds root too, so a fork bomb hits the cap instead of the machine's
// process table. Where cgroups are not writable this quietly does nothing and limits.ts's
// RLIMIT_NPROC is the only cap.

export interface PidsGroup {
  /** Moves a process into the group; its future children are born there. */
  add(pid: number): Promise<boolean>;
  setMax(max: number | null): Promise<void>;
  /** Kills whatever is still in the group (daemons that left the session too), then removes it. */
  remove(): Promise<void>;
}

let parentDir: Promise<string | null> | null = null;

/** The pids hierarchy directory of this process's own cgroup, if the controller is there. */
async function findParent(): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  const self = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  for (const line of self.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (controllers === undefined || path === undefined) continue;
    if (controllers.split(',').includes('pids')) return join('/sys/fs/cgroup/pids', path);
  }
  // cgroup v2: the unified hierarchy, if pids is enabled for children of our cgroup.
  const unified = self.split('\n').find((l) => l.startsWith('0::'));
  if (unified) {
    const dir = join('/sys/fs/cgroup', unified.slice(3));
    const subtree = await readFile(join(dir, 'cgroup.subtree_control'), 'utf8').catch(() => '');
    if (subtree.split(/\s+/).includes('pids')) return dir;
  }
  return null;
}

/**
 * Removes empty groups left by app processes that ended without cleaning up (a crash, a test
 * worker that never disposed its engine). Groups are named oi-<pid>-…; a live pid's are left alone.
 */
async function sweepStale(parent: string): Promise<void> {
  const entries = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (entry) => {
      const owner = /^oi-(\d+)-/.exec(entry)?.[1];
      if (!owner || Number(owner) === process.pid || isAlive(Number(owner))) return;
      await rmdir(join(parent, entry)).catch(() => undefined);
    }),
  );
}

function isMember(pid: number, groupName: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(`/${groupName}\n`);
  } catch {
    return false;
  }
}

export async function createPidsGroup(name: string): Promise<PidsGroup | null> {
  if (!parentDir) {
    parentDir = findParent();
    const found = await parentDir;
    if (found) await sweepStale(found);
  }
  const parent = await parentDir;
  if (!parent) return null;
  const groupName = `oi-${process.pid}-${name}`;
  const dir = join(parent, groupName);
  try {
    await mkdir(dir);
    await writeFile(join(dir, 'pids.max'), 'max');
  } catch {
    await rmdir(dir).catch(() => undefined);
    return null;
  }
  return {
    async add(pid) {
      // Writing 0 would move the writer itself (this process) into the group: never.
      if (!Number.isInteger(pid) || pid <= 1) return false;
      try {
        await writeFile(join(dir, 'cgroup.procs'), String(pid));
        return true;
      } catch {
        return false;
      }
    },
    async setMax(max) {
      await writeFile(join(dir, 'pids.max'), max === null ? 'max' : String(max)).catch(() => undefined);
    },
    async remove() {
      for (let attempt = 0; attempt < 20; attempt++) {
        const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
        for (const pid of procs
          .split('\n')
          .map(Number)
          .filter((n) => n > 1 && n !== process.pid)) {
          // The pid may have exited since the listing and gone to an unrelated process (a fork
          // bomb churns through pids): kill it only if it is still in this group.
          if (!isMember(pid, groupName)) continue;
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        try {
          await rmdir(dir);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
  };
}
