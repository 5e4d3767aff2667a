import { describe, expect, it } from 'vitest';
import { OutputBatcher } from '../../../src-main/core/exec/output/output-batcher';

describe('OutputBatcher', () => {
  it('coalesces small writes into one batch per interval', async () => {
    const batches: string[] = [];
    const b = new OutputBatcher((t) => batches.push(t), 10, 1000);
    for (let i = 0; i < 100; i++) b.push('x');
    expect(batches).toEqual([]);
    // Wait for the interval's first batch (its timer fires on its own), then check it held all 100.
    await expect.poll(() => batches.length).toBeGreaterThan(0);
    expect(batches).toEqual(['x'.repeat(100)]);
  });

  it('sends at once when the size limit is reached', () => {
    const batches: string[] = [];
    const b = new OutputBatcher((t) => batches.push(t), 1000, 10);
    b.push('12345');
    b.push('67890');
    expect(batches).toEqual(['1234567890']);
    b.push('a');
    b.flush();
    expect(batches).toEqual(['1234567890', 'a']);
  });

  it('survives a throwing consumer', () => {
    const b = new OutputBatcher(
      () => {
        throw new Error('ui gone');
      },
      1000,
      1,
    );
    expect(() => b.push('x')).not.toThrow();
  });
});
