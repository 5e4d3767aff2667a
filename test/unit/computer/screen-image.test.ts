import { describe, expect, it } from 'vitest';
import { realSpan } from '../../../src-main/core/computer/screen-geometry';
import { blackOut, scaleDown } from '../../../src-main/core/computer/screen-image';
import { readXwd, type ScreenPixels } from '../../../src-main/core/computer/xwd-image';

// The screenshot's pixels (docs/computer-use.md#windows): a window's area scaled with the same blocks
// as the whole screen, counted from its corner, read straight from the capture's words (rows padded);
// and the two ways of reading a capture (in place, and pixel by pixel) giving the same screen.

/** A screen of pseudo-random colours, its rows `pad` words longer than the screen is wide. */
function screen(width: number, height: number, pad: number): ScreenPixels {
  const stride = width + pad;
  const pixels = new Uint32Array(stride * height);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    pixels[i] = seed; // the top byte is padding, which must never show
  }
  return { width, height, stride, pixels };
}

/** The average of one block of real pixels, channel by channel, as the model's pixel must be. */
function block(image: ScreenPixels, xs: [number, number], ys: [number, number]): number[] {
  const sum: [number, number, number] = [0, 0, 0];
  for (let y = ys[0]; y <= ys[1]; y++)
    for (let x = xs[0]; x <= xs[1]; x++) {
      const p = image.pixels[y * image.stride + x] as number;
      sum[0] += (p >>> 16) & 0xff;
      sum[1] += (p >>> 8) & 0xff;
      sum[2] += p & 0xff;
    }
  const n = (xs[1] - xs[0] + 1) * (ys[1] - ys[0] + 1);
  return sum.map((v) => Math.round(v / n));
}

describe('screen image', () => {
  it("scales a window's area with the screen's blocks counted from its corner, the app's windows black", () => {
    const image = screen(211, 97, 3);
    blackOut(image, [{ x: 50, y: 10, width: 40, height: 30 }]);
    const area = { x: 37, y: 5, width: 131, height: 61 };
    const size = { width: 53, height: 29 }; // factors 131/53 and 61/29: not whole numbers
    const scaled = scaleDown(image, area, size);
    const wrong: string[] = [];
    for (let y = 0; y < size.height; y++)
      for (let x = 0; x < size.width; x++) {
        const xs = realSpan(x, size.width, area.width).map((v) => v + area.x) as [number, number];
        const ys = realSpan(y, size.height, area.height).map((v) => v + area.y) as [number, number];
        const got = [...scaled.data.subarray((y * size.width + x) * 3, (y * size.width + x) * 3 + 3)];
        if (got.join() !== block(image, xs, ys).join()) wrong.push(`${x},${y}`);
      }
    expect(wrong).toEqual([]);
    // Inside the blacked-out rectangle (real 50–89 × 10–39), a scaled pixel whose block lies wholly there is black.
    const at = (4 * size.width + 7) * 3; // scaled (7, 4): real 54–56 × 13–15
    const inside = scaled.data.subarray(at, at + 3);
    expect([...inside]).toEqual([0, 0, 0]);
  });

  it('refuses an area that is not on the screen, naming it', () => {
    expect(() => scaleDown(screen(10, 10, 0), { x: 5, y: 5, width: 6, height: 2 }, { width: 3, height: 1 })).toThrow(
      'the area 6×2 at (5, 5) is not inside the 10×10 screen',
    );
  });

  it('reads a capture in place and pixel by pixel alike', () => {
    const [width, height] = [5, 3];
    const dump = (bitsPerPixel: 24 | 32) => {
      const bytes = bitsPerPixel / 8;
      const bytesPerLine = Math.ceil((width * bytes) / 4) * 4;
      const header = Buffer.alloc(100 + 4); // 25 fields, and a window name's 4 bytes
      const fields = [104, 7, 2, 24, width, height, 0, 0, 32, 0, 32, bitsPerPixel, bytesPerLine, 4, 0xff0000, 0xff00, 0xff, 8, 256, 0];
      fields.forEach((v, i) => header.writeUInt32BE(v, i * 4));
      const body = Buffer.alloc(bytesPerLine * height);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) body.writeUIntLE(((x * 40) << 16) | ((y * 90) << 8) | (x + y), y * bytesPerLine + x * bytes, bytes);
      // In place only when the pixels start on a word: a 104-byte header does.
      return Buffer.concat([header, body]);
    };
    const colours = (image: ScreenPixels) =>
      Array.from(
        { length: width * height },
        (_, i) => (image.pixels[Math.floor(i / width) * image.stride + (i % width)] as number) & 0xffffff,
      );
    const inPlace = readXwd(dump(32));
    const byPixel = readXwd(dump(24));
    expect(colours(inPlace)).toEqual(colours(byPixel));
    expect(colours(inPlace)[7]).toEqual((80 << 16) | (90 << 8) | 3);
  });
});
