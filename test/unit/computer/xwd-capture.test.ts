import { mkdtempSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureThroughFile } from '../../../src-main/core/computer/xwd-capture';

// The capture's way from xwd into the app (docs/computer-use.md#speed): xwd's stdout is a file the app
// made for it alone and unlinked at once; the dump is read where its pixels fall on a word (a header
// of 107 bytes, as xwd writes for the root window, puts them at an odd offset), into memory a finished
// screenshot gave back when there is some. Here the part that would be xwd writes a dump into the
// descriptor it is given, as xwd does with its stdout.

/** An XWD dump of a 3×2 true-colour screen, 32 bits a pixel, its header `headerSize` bytes (a window name pads it). */
function dump(headerSize: number): Buffer {
  const [width, height, bytesPerLine] = [3, 2, 12];
  const header = Buffer.alloc(headerSize);
  const fields = [headerSize, 7, 2, 24, width, height, 0, 0, 32, 0, 32, 32, bytesPerLine, 4, 0xff0000, 0xff00, 0xff, 8, 256, 0];
  fields.forEach((v, i) => header.writeUInt32BE(v, i * 4));
  const body = Buffer.alloc(bytesPerLine * height);
  for (let i = 0; i < width * height; i++) body.writeUInt32LE((0xff000000 | (i * 0x102030)) >>> 0, i * 4);
  return Buffer.concat([header, body]);
}

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'oi-xwd-capture-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('capture through a private file', () => {
  it('reads an odd-sized header’s pixels in place, from a file no one else can open, into memory given back', async () => {
    const dir = folder();
    const seenWhileWriting: string[][] = [];
    const writeDump = async (fd: number) => {
      seenWhileWriting.push(readdirSync(dir));
      writeSync(fd, dump(107));
      return { ok: true, stdout: '', stderr: '' };
    };
    const first = await captureThroughFile(writeDump, undefined, dir);
    // Unlinked before "xwd" ran: nothing in the folder to open by name, then or after.
    expect(seenWhileWriting).toEqual([[]]);
    expect(readdirSync(dir)).toEqual([]);
    expect([first.width, first.height, first.stride]).toEqual([3, 2, 3]);
    expect(Array.from(first.pixels, (p) => p & 0xffffff)).toEqual([0, 0x102030, 0x204060, 0x306090, 0x4080c0, 0x50a0f0]);
    // In place: the pixels are a view of the memory the file was read into, not a copy made to align them.
    expect(first.pixels.byteOffset % 4).toBe(0);
    expect(first.pixels.buffer.byteLength).toBe(107 + 24 + 1);
    // Given back, that memory takes the next capture; too small, a new one does.
    const spare = first.pixels.buffer as ArrayBuffer;
    const second = await captureThroughFile(writeDump, spare, dir);
    expect(second.pixels.buffer).toBe(spare);
    const third = await captureThroughFile(writeDump, new ArrayBuffer(8), dir);
    expect(third.pixels.buffer.byteLength).toBe(132);
    expect(Array.from(third.pixels, (p) => p & 0xffffff)).toEqual(Array.from(first.pixels, (p) => p & 0xffffff));
  });

  it('says why when xwd fails, and leaves no file behind', async () => {
    const dir = folder();
    const failing = async () => ({ ok: false, stdout: '', stderr: 'xwd: unable to open display ":99"\n' });
    await expect(captureThroughFile(failing, undefined, dir)).rejects.toThrow(
      'could not capture the screen (xwd: xwd: unable to open display ":99")',
    );
    expect(readdirSync(dir)).toEqual([]);
    // A dump cut short is refused by name rather than drawn from whatever the memory held.
    const short = async (fd: number) => {
      writeSync(fd, dump(107).subarray(0, 120));
      return { ok: true, stdout: '', stderr: '' };
    };
    await expect(captureThroughFile(short, new ArrayBuffer(4096), dir)).rejects.toThrow('the screen capture is cut short');
  });
});
