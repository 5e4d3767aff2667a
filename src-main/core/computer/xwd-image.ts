// The screen as `xwd -root` writes it (X Window Dump, the format of X11's own xwd/xwud tools), read into
// one word a pixel. Only what a true-colour root window gives is read (ZPixmap, 24 or 32 bits a pixel, with
// colour masks); anything else is refused by name rather than drawn wrong.

/**
 * The screen in memory: one 32-bit word a pixel, 0x??RRGGBB (the top byte not read), rows `stride` words apart. The common
 * dump (a little-endian machine, 32 bits a pixel, 8-bit channels in the usual places) is read in place,
 * without a copy: the capture, the black-out and the scaling then touch each real pixel once
 * (bench/computer.bench.ts).
 */
export interface ScreenPixels {
  width: number;
  height: number;
  stride: number;
  pixels: Uint32Array;
}

/** An image of 3 bytes a pixel (R, G, B), rows top to bottom: the scaled screenshot. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

const HEADER_FIELDS = 25;
const ZPIXMAP = 2;
const TRUE_COLOR = 4;
const DIRECT_COLOR = 5;

/** Where the pixels start in an XWD dump, from its first 100 bytes (0 when they are not there). */
export function xwdPixelsStart(head: Buffer): number {
  if (head.length < HEADER_FIELDS * 4) return 0;
  return head.readUInt32BE(0) + head.readUInt32BE(19 * 4) * 12;
}

/** Reads an XWD dump of a true-colour screen; throws naming what it cannot read. */
export function readXwd(file: Buffer): ScreenPixels {
  if (file.length < HEADER_FIELDS * 4) throw new Error(`the screen capture is too short to be an XWD image (${file.length} bytes)`);
  // xwd writes its header most significant byte first whatever the machine.
  const field = (i: number) => file.readUInt32BE(i * 4);
  const headerSize = field(0);
  const [version, format, width, height, byteOrder, bitsPerPixel, bytesPerLine, visualClass] = [
    field(1),
    field(2),
    field(4),
    field(5),
    field(7),
    field(11),
    field(12),
    field(13),
  ];
  const masks = [field(14), field(15), field(16)] as const;
  const colors = field(19);
  if (version !== 7) throw new Error(`the screen capture is XWD version ${version}, not 7`);
  if (format !== ZPIXMAP) throw new Error(`the screen capture is not a ZPixmap (format ${format})`);
  if (visualClass !== TRUE_COLOR && visualClass !== DIRECT_COLOR)
    throw new Error(`the screen uses a colour map (visual class ${visualClass}); only true-colour screens are read`);
  if (bitsPerPixel !== 32 && bitsPerPixel !== 24) throw new Error(`the screen has ${bitsPerPixel} bits a pixel; 24 or 32 are read`);
  const start = headerSize + colors * 12;
  if (file.length < start + bytesPerLine * height)
    throw new Error(`the screen capture is cut short (${file.length} bytes for ${width}×${height})`);
  const [r, g, b] = masks.map(maskShift) as [Channel, Channel, Channel];
  const bytes = bitsPerPixel / 8;
  const lsbFirst = byteOrder === 0;
  const usual = masks[0] === 0xff0000 && masks[1] === 0xff00 && masks[2] === 0xff;
  if (usual && bytes === 4 && lsbFirst && bytesPerLine % 4 === 0) {
    // The words are already 0x??RRGGBB (the top byte is padding, never read): used where they lie when
    // they start on a word (xwd-capture.ts places them so), else copied once onto one.
    const words = (bytesPerLine / 4) * height;
    if ((file.byteOffset + start) % 4 === 0)
      return { width, height, stride: bytesPerLine / 4, pixels: new Uint32Array(file.buffer, file.byteOffset + start, words) };
    const pixels = new Uint32Array(words);
    new Uint8Array(pixels.buffer).set(file.subarray(start, start + words * 4));
    return { width, height, stride: bytesPerLine / 4, pixels };
  }
  const pixels = new Uint32Array(width * height);
  const channel = (pixel: number, c: Channel) =>
    c.max === 255 ? (pixel & c.mask) >>> c.shift : Math.round((((pixel & c.mask) >>> c.shift) * 255) / c.max);
  let out = 0;
  for (let y = 0; y < height; y++) {
    let at = start + y * bytesPerLine;
    for (let x = 0; x < width; x++, at += bytes) {
      const pixel =
        bytes === 4
          ? lsbFirst
            ? file.readUInt32LE(at)
            : file.readUInt32BE(at)
          : lsbFirst
            ? file.readUIntLE(at, 3)
            : file.readUIntBE(at, 3);
      pixels[out++] = (channel(pixel, r) << 16) | (channel(pixel, g) << 8) | channel(pixel, b);
    }
  }
  return { width, height, stride: width, pixels };
}

interface Channel {
  mask: number;
  shift: number;
  max: number;
}

function maskShift(mask: number): Channel {
  if (mask === 0) throw new Error('the screen capture has an empty colour mask');
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { mask, shift, max: mask >>> shift };
}
