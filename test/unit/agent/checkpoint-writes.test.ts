import { describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { CheckpointWrites } from '../../../src-main/core/agent/checkpoint-writes';

const cell = (id: string): CellItem =>
  ({
    id,
    kind: 'cell',
    status: 'done',
    resultForModel: 'printed 1',
    changes: { checkpointed: true, files: [{ path: 'a.txt', change: 'created', size: 1 }], skipped: [] },
  }) as unknown as CellItem;

describe('checkpoint lists written behind a step', () => {
  it('waits for every list; a list that failed marks its cell as not checkpointed and tells the model', async () => {
    const writes = new CheckpointWrites();
    const ok = cell('ok');
    const bad = cell('bad');
    let finish: () => void = () => undefined;
    writes.add(ok, new Promise<void>((resolve) => (finish = resolve)));
    writes.add(bad, Promise.reject(new Error('ENOSPC: no space left on device')));
    let settled = false;
    const done = writes.settle().then((failed) => ((settled = true), failed));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // the step does not end before the last list is on disk
    finish();
    expect(await done).toBe(true);
    expect(ok.changes).toMatchObject({ checkpointed: true });
    expect(bad.changes).toEqual({
      checkpointed: false,
      files: [],
      skipped: [],
      note: 'no checkpoint could be taken after this cell (ENOSPC: no space left on device)',
    });
    expect(bad.resultForModel).toMatch(/^printed 1\n\nNote: no checkpoint could be taken .*it cannot be rewound\.$/);
    expect(await writes.settle()).toBe(false); // nothing left over for the next step
  });
});
