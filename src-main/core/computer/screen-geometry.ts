// The one mapping between the screenshot the model sees (scaled down to what it accepts) and the real
// screen. Every scaled pixel covers a block of whole real pixels (the scale never enlarges); a point the
// model names is the middle of its block, and a real point is shown in the block that holds it, so
// realToScaled(scaledToReal(p)) is p for every pixel of the screenshot — exact, at any size.

export interface Size {
  width: number;
  height: number;
}

/** What a model accepts as one image: the longest edge, and the pixels in all. */
export interface ImageLimit {
  maxEdge: number;
  maxPixels: number;
}

/**
 * Anthropic scales down anything past 1568 px on the long edge or about 1.15 megapixels (its vision
 * docs), and clicks go wrong on an image the API resized behind our back; OpenAI's high detail fits
 * 2048 px and then 768 px on the short side, so a screen is sent at most 768 high (or wide) there.
 */
export function imageLimitFor(provider: string): ImageLimit {
  return provider === 'anthropic' ? { maxEdge: 1568, maxPixels: 1_150_000 } : { maxEdge: 2048, maxPixels: 2048 * 768 };
}

/** The screenshot's size for a screen: the screen itself when it fits, else scaled down keeping its shape. */
export function scaledSize(screen: Size, limit: ImageLimit): Size {
  const factor = Math.min(
    1,
    limit.maxEdge / Math.max(screen.width, screen.height),
    Math.sqrt(limit.maxPixels / (screen.width * screen.height)),
  );
  return {
    width: Math.max(1, Math.min(screen.width, Math.floor(screen.width * factor))),
    height: Math.max(1, Math.min(screen.height, Math.floor(screen.height * factor))),
  };
}

/** The real pixels one scaled column (or row) covers: [first, last]. */
export function realSpan(scaled: number, scaledLength: number, realLength: number): [number, number] {
  const first = Math.ceil((scaled * realLength) / scaledLength);
  const last = Math.ceil(((scaled + 1) * realLength) / scaledLength) - 1;
  return [first, last];
}

/** A point of the screenshot on the real screen: the middle of the real block it stands for. */
export function scaledToReal(point: { x: number; y: number }, scaled: Size, real: Size): { x: number; y: number } {
  const [x0, x1] = realSpan(point.x, scaled.width, real.width);
  const [y0, y1] = realSpan(point.y, scaled.height, real.height);
  return { x: Math.floor((x0 + x1) / 2), y: Math.floor((y0 + y1) / 2) };
}

/** A real point in the screenshot: the scaled pixel whose block holds it. */
export function realToScaled(point: { x: number; y: number }, scaled: Size, real: Size): { x: number; y: number } {
  return {
    x: Math.min(scaled.width - 1, Math.floor((point.x * scaled.width) / real.width)),
    y: Math.min(scaled.height - 1, Math.floor((point.y * scaled.height) / real.height)),
  };
}

/** Whether a point given by the model lies inside the screenshot; else a sentence saying where it may. */
export function outsideScreenshot(point: { x: number; y: number }, scaled: Size): string | null {
  if (
    Number.isInteger(point.x) &&
    Number.isInteger(point.y) &&
    point.x >= 0 &&
    point.y >= 0 &&
    point.x < scaled.width &&
    point.y < scaled.height
  )
    return null;
  return `(${point.x}, ${point.y}) is not a pixel of the screenshot: x must be a whole number from 0 to ${scaled.width - 1}, y from 0 to ${scaled.height - 1}`;
}
