// Runs in one session go one at a time, in the order they were asked for: a session runs one piece
// of code at a time, and the model reads results in the order it wrote the cells. A run that fails
// does not hold up the ones after it.

export class RunQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task pushed before it has settled; its failure becomes `onError`'s value. */
  push<T>(task: () => Promise<T>, onError: (err: unknown) => T): Promise<T> {
    const settled = this.tail.then(task).catch(onError);
    this.tail = settled.catch(() => undefined);
    return settled;
  }
}

/** Tasks with the same key one at a time, in the order pushed; a key is forgotten once its tasks are done. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  push<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
