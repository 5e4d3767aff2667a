import { randomBytes } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { ProgramResult } from '../programs/app-programs';
import { readXwd, xwdPixelsStart, type ScreenPixels } from './xwd-image';

// How a screen capture gets from xwd into the app. Through a pipe, xwd's 8 MB (at 1920×1080) went
// 64 KB at a time, each waiting for the app to be scheduled and read it, and then were concatenated
// and, their pixels lying at an offset that is not a multiple of 4, read pixel by pixel — about half
// of the screenshot's time (docs/computer-use.md#speed). Instead xwd writes into a file the app
// opened for it, in one write, and the app reads the file in one read, placed so that the pixels
// start on a word boundary and are used where they lie (xwd-image.ts).
//
// The file is the app's alone: created anew (O_EXCL: never a file or link someone left there), mode
// 0600, and unlinked before xwd starts, so no other program can open it by name; xwd gets it as its
// stdout. Sandboxed code sees neither the app's temp folder nor its open files (its own /tmp and pid
// namespace, exec/sandbox/bubblewrap-args.ts).
//
// The memory it is read into can be given back (`spare`) once a screenshot is made from it: a fresh
// 8 MB each time cost more than the read itself (the kernel handing out and zeroing its pages, the
// collector freeing them: about 30 ms of CPU a screenshot on the loaded test machine).

/** Runs xwd with its stdout on `fd` (programs/app-programs.ts's runAppProgramToFile). */
export type XwdToFile = (fd: number) => Promise<ProgramResult>;

/**
 * The screen as xwd dumps it, through a private unlinked file; throws saying what failed. `spare`:
 * memory no one uses any more (a screenshot made from an earlier capture), read into when it is large enough.
 */
export async function captureThroughFile(runXwd: XwdToFile, spare?: ArrayBuffer, folder = os.tmpdir()): Promise<ScreenPixels> {
  const path = join(folder, `oi-screen-${process.pid}-${randomBytes(8).toString('hex')}.xwd`);
  const file = await open(path, 'wx+', 0o600);
  try {
    await unlink(path);
    const result = await runXwd(file.fd);
    if (!result.ok) throw new Error(`could not capture the screen (xwd: ${result.stderr.trim().slice(0, 300) || 'failed'})`);
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, 100));
    await file.read(head, 0, head.length, 0);
    // Where the pixels start decides where the whole dump goes in memory: there they fall on a word.
    const start = xwdPixelsStart(head);
    const pad = (4 - (start % 4)) % 4;
    const memory = spare && spare.byteLength >= size + pad ? spare : new ArrayBuffer(size + pad);
    const dump = Buffer.from(memory, pad, size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await file.read(dump, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return readXwd(dump.subarray(0, at));
  } finally {
    await file.close();
  }
}
