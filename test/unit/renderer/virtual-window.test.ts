import { describe, expect, it } from 'vitest';
import { computeWindow } from '../../../src-renderer/features/chat/virtual-window';

describe('the virtual list window', () => {
  const h = () => 100;

  it('mounts the viewport plus the overscan, and knows the total height', () => {
    expect(computeWindow(1000, h, 50_000, 800, 200)).toEqual({ start: 498, end: 510, firstVisible: 500, offset: 49_800, total: 100_000 });
  });

  it('clamps at both ends', () => {
    expect(computeWindow(1000, h, 0, 800, 200)).toMatchObject({ start: 0, end: 10, firstVisible: 0, offset: 0 });
    expect(computeWindow(1000, h, 99_200, 800, 200)).toMatchObject({ start: 990, end: 1000, firstVisible: 992 });
    expect(computeWindow(0, h, 0, 800)).toEqual({ start: 0, end: 0, firstVisible: 0, offset: 0, total: 0 });
  });

  it('uses each item’s own height', () => {
    const heights = [10, 1000, 10, 10];
    expect(computeWindow(4, (i) => heights[i] ?? 0, 500, 100, 0)).toMatchObject({
      start: 1,
      end: 2,
      firstVisible: 1,
      offset: 10,
      total: 1030,
    });
  });
});
