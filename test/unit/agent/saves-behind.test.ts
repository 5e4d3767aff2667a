import { describe, expect, it } from 'vitest';
import { SavesBehind } from '../../../src-main/core/agent/saves-behind';

// A turn's saves between steps are written while the turn goes on (agent/saves-behind.ts); a save
// that fails must still reach the turn, as it did when the turn waited for each one.

describe('saves written behind a turn', () => {
  it('does not wait for a save, and waits for all of them when settled', async () => {
    const finishers: Array<() => void> = [];
    const saves = new SavesBehind(() => new Promise<void>((resolve) => finishers.push(resolve)));
    saves.start();
    saves.start();
    expect(finishers).toHaveLength(2);
    let settled = false;
    const all = saves.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    for (const finish of finishers) finish();
    await all;
    expect(settled).toBe(true);
  });

  it('throws a failed save at the next start, once, and at settled', async () => {
    let fail = true;
    const saves = new SavesBehind(() => (fail ? Promise.reject(new Error('disk full')) : Promise.resolve()));
    saves.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => saves.start()).toThrow('disk full');
    fail = false;
    // Reported once: the start that threw did not save, the next one does.
    expect(() => saves.start()).not.toThrow();
    await expect(saves.settled()).resolves.toBeUndefined();
    fail = true;
    saves.start();
    await expect(saves.settled()).rejects.toThrow('disk full');
  });
});
