// The screen as `xwd -root` writes it (X Window Dump, the format of X11's own xwd/xwud tools), read into
// plain RGB. Only what a true-colour root window gives is read (ZPixmap, 24 or 32 bits a pixel, with
// colour masks); anything else is refused by name rather than drawn wrong.

/** An image in memory: 3 bytes a pixel (R, G, B), rows top to bottom. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

const HEADER_FIELDS = 25;
const ZPIXMAP = 2;
const TRUE_COLOR = 4;
const DIRECT_COLOR = 5;

/** Reads an XWD dump of a true-colour screen; throws naming what it cannot read. */
export function readXwd(file: Buffer): RgbImage {
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
  const data = Buffer.allocUnsafe(width * height * 3);
  const plain = r.max === 255 && g.max === 255 && b.max === 255;
  let out = 0;
  if (plain && bytes === 4 && lsbFirst && (file.byteOffset + start) % 4 === 0 && bytesPerLine % 4 === 0) {
    // The common case (a little-endian machine, 32 bits a pixel): whole words, no per-byte reads.
    const words = new Uint32Array(file.buffer, file.byteOffset + start, (bytesPerLine / 4) * height);
    const perLine = bytesPerLine / 4;
    for (let y = 0; y < height; y++) {
      for (let x = 0, at = y * perLine; x < width; x++, at++) {
        const pixel = words[at] as number;
        data[out++] = (pixel & r.mask) >>> r.shift;
        data[out++] = (pixel & g.mask) >>> g.shift;
        data[out++] = (pixel & b.mask) >>> b.shift;
      }
    }
    return { width, height, data };
  }
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
      if (plain) {
        // The usual 8 bits a channel: no rescaling.
        data[out++] = (pixel & r.mask) >>> r.shift;
        data[out++] = (pixel & g.mask) >>> g.shift;
        data[out++] = (pixel & b.mask) >>> b.shift;
      } else {
        data[out++] = Math.round((((pixel & r.mask) >>> r.shift) * 255) / r.max);
        data[out++] = Math.round((((pixel & g.mask) >>> g.shift) * 255) / g.max);
        data[out++] = Math.round((((pixel & b.mask) >>> b.shift) * 255) / b.max);
      }
    }
  }
  return { width, height, data };
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
