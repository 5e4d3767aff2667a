import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

export async function createPidsGroup(name: string): Promise<PidsGroup | null> {
  parentDir ??= findParent();
  const parent = await parentDir;
  if (!parent) return null;
  const dir = join(parent, `oi-${process.pid}-${name}`);
  try {
    await mkdir(dir);
    await writeFile(join(dir, 'pids.max'), 'max');
  } catch {
    await rmdir(dir).catch(() => undefined);
    return null;
  }
  return {
    async add(pid) {
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
        for (const pid of procs.split('\n').map(Number).filter((n) => n > 1 && n !== process.pid)) {
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
