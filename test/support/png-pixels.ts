import { inflateSync } from 'node:zlib';

/** The pixels of a PNG as the app writes screenshots (8-bit RGB); any other PNG is refused, not misread. */
export function readPng(png: Buffer): { width: number; height: number; rgb: Buffer } {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 2) throw new Error('only 8-bit RGB PNGs are read here');
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    if (raw[row] !== 0) throw new Error(`row ${y} uses PNG filter ${raw[row]}; only filter 0 is read here`);
    raw.copy(rgb, y * width * 3, row + 1, row + 1 + width * 3);
  }
  return { width, height, rgb };
}

/** The box of pixels of exactly this colour, and its middle; null when there are none. */
export function findColour(
  image: { width: number; height: number; rgb: Buffer },
  [r, g, b]: [number, number, number],
): { x0: number; y0: number; x1: number; y1: number; x: number; y: number; count: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  let count = 0;
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      if (image.rgb[i] !== r || image.rgb[i + 1] !== g || image.rgb[i + 2] !== b) continue;
      count++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  return count === 0 ? null : { x0, y0, x1, y1, x: Math.floor((x0 + x1) / 2), y: Math.floor((y0 + y1) / 2), count };
}

/** The screenshot a model request carried last, decoded, from the request's own wire format (Anthropic or OpenAI). */
export function lastScreenshot(request: { body: unknown }): ReturnType<typeof readPng> {
  const text = JSON.stringify(request.body);
  const found = [...text.matchAll(/"data":"([A-Za-z0-9+/=]+)"|"url":"data:image\/png;base64,([A-Za-z0-9+/=]+)"/g)];
  const last = found.at(-1);
  if (!last) throw new Error('the model was sent no screenshot');
  return readPng(Buffer.from(last[1] ?? last[2] ?? '', 'base64'));
}
