// One mutation of the mutation check (mutation-check.ts): a protection taken out by one exact text
// replaced. Its own file so the lists (mutations-issue24.ts) and the runner import it without a cycle.
export interface Mutation {
  name: string;
  /** What the mutation takes away, as docs/sandbox.md calls it. */
  protection: string;
  file: string;
  find: string;
  replace: string;
  /** The tests that hold the protection (run unless --full). */
  tests: string[];
  /** The code is the renderer's: run `npm run build` with it mutated, and again once restored. */
  build?: boolean;
}
