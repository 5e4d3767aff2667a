import { constants } from 'node:fs';
import { NoFollowError, openBeneath } from './no-follow-open';

// Reading a small text file the person (or a stranger's repository) keeps beside the app — AGENTS.md,
// a skill's SKILL.md or its resources — to give to the model: never through a link at any component
// (a link named SKILL.md could point at ~/.ssh/id_rsa and send it to the provider), never waiting on a
// FIFO of that name (O_NONBLOCK), and never more than the caller's cap.

export type BoundedRead =
  | {
      ok: true;
      /** At most `maxBytes + 1` bytes: one more than the cap says the file was longer. */
      bytes: Buffer;
      /** The file's whole size. */
      size: number;
      /** Its permission bits (an installed skill's script keeps its executable bit). */
      mode: number;
    }
  | { ok: false; why: 'missing' | 'link' | 'not-a-file' | 'unreadable'; message: string };

export async function readBeneath(root: string, segments: readonly string[], maxBytes: number): Promise<BoundedRead> {
  let handle;
  try {
    handle = await openBeneath(root, segments, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if (err instanceof NoFollowError) return { ok: false, why: err.reason === 'symlink' ? 'link' : 'not-a-file', message: err.message };
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, why: 'missing', message: `${segments.join('/')} does not exist` };
    return { ok: false, why: 'unreadable', message: (err as Error).message };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, why: 'not-a-file', message: `${segments.join('/')} is not a file` };
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, st.size + 1));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { ok: true, bytes: buffer.subarray(0, bytesRead), size: st.size, mode: st.mode & 0o777 };
  } catch (err) {
    return { ok: false, why: 'unreadable', message: (err as Error).message };
  } finally {
    await handle.close();
  }
}
