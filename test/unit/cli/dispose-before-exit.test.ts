import { describe, expect, it } from 'vitest';
import { disposeBeforeExit } from '../../../src-main/core/dispose-before-exit';

// A process about to exit waits for the app to close, but never for good (dispose-before-exit.ts).

describe('disposeBeforeExit', () => {
  it('waits for a dispose that finishes, and says nothing', async () => {
    const said: string[] = [];
    let disposed = false;
    await disposeBeforeExit({ dispose: async () => void (disposed = true) }, (line) => said.push(line), 60_000);
    expect(disposed).toBe(true);
    expect(said).toEqual([]);
  });

  it('gives up on a dispose that never finishes, saying so', async () => {
    const said: string[] = [];
    await disposeBeforeExit({ dispose: () => new Promise<void>(() => undefined) }, (line) => said.push(line), 200);
    expect(said).toEqual(['closing took longer than 0.2 s; exiting without waiting for it']);
  });

  it('says why a dispose failed, and goes on', async () => {
    const said: string[] = [];
    await disposeBeforeExit({ dispose: () => Promise.reject(new Error('a kernel server refused')) }, (line) => said.push(line), 60_000);
    expect(said).toEqual(['closing failed: a kernel server refused']);
  });
});
