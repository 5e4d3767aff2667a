import { createHash } from 'node:crypto';

/**
 * Many objects at once as one git pack (version 2, no deltas): a big file's first checkpoint is tens of
 * thousands of chunks (chunking.ts), and as loose objects that was as many files created — most of the
 * time of a 40 MB file's first checkpoint went to the file system. The pack is handed to
 * `git index-pack --stdin`, which checks every object and its id as it indexes it, so what goes into
 * the store is git's own, verified. Each object is a zlib stream of *stored* (uncompressed) blocks,
 * made here: one zlib.deflateSync per object cost about half a millisecond each under load (a zlib
 * state made and dropped every time), which for 50,000 chunks was most of the checkpoint. A big file's
 * first version is thus kept at its size (a compressible one is not compressed); the few chunks of an
 * edit are written loose, deflated. Format: "PACK", version, count; each object a type-and-size header
 * (7 bits a byte, the first with 3 bits of type and 4 of size) and its zlib-deflated bytes; the SHA-1
 * of all that at the end.
 */

const TYPES = { tree: 2, blob: 3 } as const;

export function packOf(objects: ReadonlyArray<{ type: 'blob' | 'tree'; content: Uint8Array }>): Buffer {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.length, 8);
  parts.push(head);
  for (const o of objects) {
    let size = o.content.length;
    const bytes = [(TYPES[o.type] << 4) | (size & 0x0f)];
    size = Math.floor(size / 16);
    while (size > 0) {
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) | 0x80;
      bytes.push(size & 0x7f);
      size = Math.floor(size / 128);
    }
    parts.push(Buffer.from(bytes), storedZlib(o.content));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** A zlib stream holding `data` in stored blocks (RFC 1950/1951): header, blocks of at most 65,535 bytes, Adler-32. */
export function storedZlib(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = Buffer.alloc(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const piece = data.subarray(b * 65535, Math.min(data.length, (b + 1) * 65535));
    out[at] = b === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(piece.length, at + 1);
    out.writeUInt16LE(piece.length ^ 0xffff, at + 3);
    out.set(piece, at + 5);
    at += 5 + piece.length;
  }
  out.writeUInt32BE(adler32(data), at);
  return out;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length;) {
    // 5,552 bytes is the most that cannot overflow before the modulo (zlib's NMAX).
    const end = Math.min(data.length, i + 5552);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
