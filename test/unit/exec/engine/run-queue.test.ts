import { describe, expect, it } from 'vitest';
import { RunQueue } from '../../../../src-main/core/exec/engine/run-queue';

// A macrotask turn: every promise reaction queued so far has run.
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('RunQueue', () => {
  it('starts a task only when the one before it has settled, in the order pushed', async () => {
    const queue = new RunQueue();
    const started: number[] = [];
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const results = gates.map((gate, i) =>
      queue.push(
        () => {
          started.push(i);
          return gate.promise;
        },
        () => 'failed',
      ),
    );
    await settle();
    expect(started).toEqual([0]);
    gates[1]!.resolve('second');
    await settle();
    expect(started).toEqual([0]);
    gates[0]!.resolve('first');
    expect(await results[0]).toBe('first');
    expect(await results[1]).toBe('second');
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[2]!.resolve('third');
    expect(await results[2]).toBe('third');
  });

  it("turns a failing task into onError's value and goes on with the next", async () => {
    const queue = new RunQueue();
    const failed = queue.push(
      () => Promise.reject(new Error('boom')),
      (err) => `caught ${(err as Error).message}`,
    );
    const next = queue.push(
      async () => 'ran',
      () => 'failed',
    );
    expect(await failed).toBe('caught boom');
    expect(await next).toBe('ran');
  });

  it('goes on even when onError itself throws', async () => {
    const queue = new RunQueue();
    const broken = queue.push(
      () => Promise.reject(new Error('boom')),
      () => {
        throw new Error('handler broke');
      },
    );
    await expect(broken).rejects.toThrow('handler broke');
    expect(
      await queue.push(
        async () => 'ran',
        () => 'failed',
      ),
    ).toBe('ran');
  });
});
