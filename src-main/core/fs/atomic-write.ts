import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so that a crash at any moment leaves either the old or the new content, never a torn
 * or empty file: write a temp file beside it, fsync it, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(path.dirname(target));
}

/** Makes a folder's new or renamed entries durable (Linux); where a folder cannot be synced, nothing. */
export async function syncDir(dir: string): Promise<void> {
  // Directory fsync makes the rename durable on Linux; other platforms refuse it, which is harmless.
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    /* not supported here */
  } finally {
    await handle?.close();
  }
}
