import { afterAll, expect } from 'vitest';
import { processTreeCpuSeconds, recordFileCpu } from './file-cpu';
import { endLeftovers } from './test-children';

// A setupFile (vitest.config.ts): its afterAll runs after the file's own (vitest runs after-hooks in
// reverse order), and kills whatever processes the file started and did not end. Files that share a
// test process (the config's `shared` project) would otherwise leave them running into the next file.
// It also writes down the file's CPU-seconds for the run's summary (test/support/file-cpu.ts).
// Read when the set-up file is loaded, before the test file's own imports (which cost CPU too).
const startCpu = processTreeCpuSeconds();
afterAll(() => {
  endLeftovers();
  const file = expect.getState().testPath;
  if (file) recordFileCpu(file, startCpu);
});
