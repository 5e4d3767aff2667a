import { describe, expect, it } from 'vitest';
import { imageLimitFor, realSpan, realToScaled, scaledSize, scaledToReal } from '../../../src-main/core/computer/screen-geometry';

// The mapping between the screenshot the model sees and the real screen (docs/computer-use.md): exact
// for every pixel, at odd sizes and HiDPI sizes, for both providers' limits.

const SCREENS = [
  { width: 1601, height: 1001 },
  { width: 1921, height: 1081 },
  { width: 2561, height: 1441 },
  { width: 3840, height: 2160 },
  { width: 5120, height: 1440 }, // two monitors side by side, one X screen
  { width: 1024, height: 768 },
];

describe('screen geometry', () => {
  for (const provider of ['anthropic', 'openai']) {
    it(`maps every screenshot pixel to the real screen and back exactly (${provider})`, () => {
      const limit = imageLimitFor(provider);
      for (const real of SCREENS) {
        const scaled = scaledSize(real, limit);
        expect(scaled.width).toBeLessThanOrEqual(limit.maxEdge);
        expect(scaled.width * scaled.height).toBeLessThanOrEqual(limit.maxPixels);
        const wrong: string[] = [];
        for (const [length, realLength] of [
          [scaled.width, real.width],
          [scaled.height, real.height],
        ] as const) {
          // The blocks tile the real screen: no real pixel is left out or shared.
          let next = 0;
          for (let s = 0; s < length; s++) {
            const [first, last] = realSpan(s, length, realLength);
            if (first !== next || last < first) wrong.push(`block ${s} of ${length} over ${realLength}: ${first}..${last}`);
            next = last + 1;
          }
          if (next !== realLength) wrong.push(`the blocks end at ${next} of ${realLength}`);
        }
        for (let sx = 0; sx < scaled.width; sx++)
          for (let sy = 0; sy < scaled.height; sy += 3) {
            const back = realToScaled(scaledToReal({ x: sx, y: sy }, scaled, real), scaled, real);
            if (back.x !== sx || back.y !== sy) wrong.push(`(${sx}, ${sy}) comes back as (${back.x}, ${back.y})`);
          }
        expect(wrong, `${real.width}×${real.height} → ${scaled.width}×${scaled.height}`).toEqual([]);
      }
    });
  }

  it('leaves a screen that fits as it is', () => {
    expect(scaledSize({ width: 1024, height: 768 }, imageLimitFor('anthropic'))).toEqual({ width: 1024, height: 768 });
  });
});
