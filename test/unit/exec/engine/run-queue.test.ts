import { describe, expect, it } from 'vitest';
import { KeyedQueue, RunQueue } from '../../../../src-main/core/exec/engine/run-queue';

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

describe('KeyedQueue', () => {
  it('finishes the tasks of one key in the order pushed, however long each takes; other keys do not wait', async () => {
    const queue = new KeyedQueue();
    const done: string[] = [];
    const slow = deferred<void>();
    const first = queue.push('conv-1', async () => {
      await slow.promise;
      done.push('1a');
    });
    const second = queue.push('conv-1', async () => {
      done.push('1b');
    });
    const other = queue.push('conv-2', async () => {
      done.push('2a');
    });
    await other;
    await settle();
    expect(done).toEqual(['2a']);
    slow.resolve();
    await Promise.all([first, second]);
    expect(done).toEqual(['2a', '1a', '1b']);
  });

  it('goes on after a task that fails, which fails only its own push', async () => {
    const queue = new KeyedQueue();
    const failed = queue.push('k', () => Promise.reject(new Error('bad')));
    const next = queue.push('k', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('bad');
    await expect(next).resolves.toBe('next');
  });
});
