import { crc32, deflateSync } from 'node:zlib';
import { realSpan, realToScaled, type Size } from './screen-geometry';
import type { RgbImage, ScreenPixels } from './xwd-image';

/** A rectangle of the real screen (the app's own window, blacked out of every screenshot). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Paints rectangles black, in place: what is under them never leaves the machine. */
export function blackOut(image: ScreenPixels, rects: readonly Rect[]): void {
  for (const r of rects) {
    const x0 = Math.max(0, r.x);
    const x1 = Math.min(image.width, r.x + r.width);
    const y0 = Math.max(0, r.y);
    const y1 = Math.min(image.height, r.y + r.height);
    if (x1 <= x0) continue;
    for (let y = y0; y < y1; y++) image.pixels.fill(0, y * image.stride + x0, y * image.stride + x1);
  }
}

/** The whole screen as an area: what a screenshot of the screen (not of one window) covers. */
export function wholeScreen(image: { width: number; height: number }): Rect {
  return { x: 0, y: 0, width: image.width, height: image.height };
}

/**
 * The area of the screen (the whole of it, or one window's rectangle inside it) scaled down to `size`
 * as RGB, each scaled pixel the average of the real block it stands for (the blocks of
 * screen-geometry.ts, counted from the area's corner, so what the model sees at a point is what a
 * click there hits). One pass over the real pixels, read straight from the capture, row by row: each
 * real pixel is added to its scaled column's sums (the blocks tile the area, so a column's index per
 * real column is looked up, not computed), and a scaled row is written once its real rows are in.
 */
export function scaleDown(image: ScreenPixels, area: Rect, size: Size): RgbImage {
  if (
    area.x < 0 ||
    area.y < 0 ||
    area.x + area.width > image.width ||
    area.y + area.height > image.height ||
    area.width < 1 ||
    area.height < 1
  )
    throw new Error(
      `the area ${area.width}×${area.height} at (${area.x}, ${area.y}) is not inside the ${image.width}×${image.height} screen`,
    );
  const out = Buffer.allocUnsafe(size.width * size.height * 3);
  const { pixels, stride } = image;
  // For each real column of the area, where its scaled column's sums are; for each scaled column, its width in real pixels.
  const sumAt = new Int32Array(area.width);
  const widths = new Int32Array(size.width);
  for (let x = 0; x < size.width; x++) {
    const [x0, x1] = realSpan(x, size.width, area.width);
    widths[x] = x1 - x0 + 1;
    sumAt.fill(x * 3, x0, x1 + 1);
  }
  const sums = new Uint32Array(size.width * 3);
  let at = 0;
  for (let y = 0; y < size.height; y++) {
    const [y0, y1] = realSpan(y, size.height, area.height);
    sums.fill(0);
    for (let yy = y0 + area.y; yy <= y1 + area.y; yy++) {
      const row = yy * stride + area.x;
      for (let x = 0; x < area.width; x++) {
        const p = pixels[row + x] as number;
        const j = sumAt[x] as number;
        sums[j] = (sums[j] as number) + ((p >>> 16) & 0xff);
        sums[j + 1] = (sums[j + 1] as number) + ((p >>> 8) & 0xff);
        sums[j + 2] = (sums[j + 2] as number) + (p & 0xff);
      }
    }
    const rows = y1 - y0 + 1;
    for (let x = 0, j = 0; x < size.width; x++, j += 3) {
      const n = rows * (widths[x] as number);
      out[at++] = Math.round((sums[j] as number) / n);
      out[at++] = Math.round((sums[j + 1] as number) / n);
      out[at++] = Math.round((sums[j + 2] as number) / n);
    }
  }
  return { width: size.width, height: size.height, data: out };
}

// An arrow pointer, 12 × 19: '#' outline (black), '.' fill (white), its tip at the top left.
const ARROW = [
  '#',
  '##',
  '#.#',
  '#..#',
  '#...#',
  '#....#',
  '#.....#',
  '#......#',
  '#.......#',
  '#........#',
  '#.........#',
  '#......#####',
  '#...#..#',
  '#..##..#',
  '#.#  #..#',
  '##   #..#',
  '#     #..#',
  '      #..#',
  '       ##',
];

/** Draws the pointer with its tip on a real screen point, in the scaled image (the screenshot shows where it is). */
export function drawPointer(image: RgbImage, real: { x: number; y: number }, realSize: Size): void {
  const tip = realToScaled(real, image, realSize);
  ARROW.forEach((row, dy) => {
    [...row].forEach((ch, dx) => {
      if (ch !== '#' && ch !== '.') return;
      const x = tip.x + dx;
      const y = tip.y + dy;
      if (x >= image.width || y >= image.height) return;
      image.data.fill(ch === '#' ? 0 : 255, (y * image.width + x) * 3, (y * image.width + x) * 3 + 3);
    });
  });
}

/**
 * The rows with their filter bytes, kept from one PNG to the next: deflate reads them before encodePng
 * returns, and a fresh 3–5 MB each screenshot cost more than filling it (pages handed out and freed).
 */
let rows = Buffer.alloc(0);

/** PNG of an RGB image (8-bit truecolour, no filter, zlib's fastest level: screens compress well as they are; bench/computer.bench.ts). */
export function encodePng(image: RgbImage): Buffer {
  const stride = image.width * 3;
  if (rows.length < (stride + 1) * image.height) rows = Buffer.allocUnsafe((stride + 1) * image.height);
  const raw = rows.subarray(0, (stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    raw[y * (stride + 1)] = 0;
    image.data.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, body, crc]);
}
