import { afterAll } from 'vitest';
import { endLeftovers } from './test-children';

// A setupFile (vitest.config.ts): its afterAll runs after the file's own (vitest runs after-hooks in
// reverse order), and kills whatever processes the file started and did not end. Files that share a
// test process (the config's `shared` project) would otherwise leave them running into the next file.
afterAll(endLeftovers);
