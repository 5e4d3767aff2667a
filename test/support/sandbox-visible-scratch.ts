import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

// A folder the test process can write and a sandboxed cell can see (read-only), for attacks whose
// proof is a file written there from inside the sandbox. The sandbox hides the temp folders and the
// home (docs/sandbox.md), so the repository's test-results/ serves only when the repository lives
// elsewhere; a clone under /tmp or in a home folder uses a folder of the system's instead, which only
// root can make (CI runs as root). Null where neither is possible: the caller says what it cannot show.

const HIDDEN = ['/tmp', '/var/tmp', '/dev/shm', '/run', '/home', '/root', os.homedir()];

function hidden(path: string): boolean {
  return HIDDEN.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
}

export function sandboxVisibleScratch(): string | null {
  const inRepo = resolve(import.meta.dirname, '../../test-results');
  if (!hidden(inRepo)) {
    mkdirSync(inRepo, { recursive: true });
    return inRepo;
  }
  if (process.getuid?.() !== 0) return null;
  const system = '/var/lib/oi-desktop-tests';
  mkdirSync(system, { recursive: true, mode: 0o755 });
  return system;
}

/**
 * A home folder for a sandboxed session's tests, where neither /tmp nor the real home hides it by
 * accident (the scratch folder above, or the repository's test-results/): a fake ~/.ssh key the sandbox
 * must hide, and the workspace at projects/demo. The caller removes `home`.
 */
export async function sandboxTestHome(prefix: string): Promise<{ home: string; workspace: string }> {
  const base = sandboxVisibleScratch() ?? resolve(import.meta.dirname, '../../test-results');
  await mkdir(base, { recursive: true });
  const home = await mkdtemp(join(base, prefix));
  const workspace = join(home, 'projects', 'demo');
  await mkdir(workspace, { recursive: true });
  await mkdir(join(home, '.ssh'), { mode: 0o700 });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n', { mode: 0o600 });
  return { home, workspace };
}
