import { afterEach } from 'vitest';

/**
 * Wraps a start function for the tests of one file: whatever a test started with it is closed after
 * that test, whether it passed or not.
 */
export function closedAfterEach<T extends { close(): Promise<void> }, O>(start: (opts?: O) => Promise<T>): (opts?: O) => Promise<T> {
  const running: T[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((started) => started.close()));
  });
  return async (opts) => {
    const started = await start(opts);
    running.push(started);
    return started;
  };
}
