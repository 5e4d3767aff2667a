import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { builtJournalWorker } from './test/support/built-journal-worker';
import { useRunTmp } from './test/support/run-tmp';
import { withShimsResolved } from './test/support/test-path';

// Every test process inherits this PATH (test/support/test-path.ts says why).
process.env.PATH = withShimsResolved(process.env.PATH ?? '');
// And this TMPDIR: the run's own folder, named and removed when the run ends (test/support/run-tmp.ts).
useRunTmp();

// Test files that run in shared processes. A file belongs here when it leaves the process as it found
// it: no process.env or cwd left changed, no module mocked, nothing global patched (files that change
// process.env for a test put it back in afterEach/finally; those that would not stay isolated). The
// CLI's tests work through `oi` processes, and the end-to-end tests through a page and an app each
// file starts and closes.
const SHARED = ['test/unit/**/*.test.ts', 'test/integration/{llm,llm-server,settings,workspace,cli}/**/*.test.ts', 'test/e2e/**/*.test.ts'];
// One Chromium for the run's browser tests (one per project), started when a browser test first asks
// (test/support/browser.ts).
const CHROMIUM = './test/support/global-chromium.ts';

export default defineConfig({
  // The change journal's thread from out/ when the build is fresh (the plugin says why).
  plugins: [builtJournalWorker()],
  resolve: {
    // The folder: '@contract' resolves to its index.ts, '@contract/limits' to one zod-free module.
    alias: { '@contract': fileURLToPath(new URL('./src-preload/contract', import.meta.url)) },
  },
  test: {
    // Kills what a file started and left running, when the file ends (test/support/file-cleanup.ts).
    setupFiles: ['./test/support/file-cleanup.ts'],
    projects: [
      // Files that change nothing process-wide for good share test processes (isolate: false): a
      // file's own process, with its module graph loaded again, cost ~0.5 CPU-seconds (CONTRIBUTING.md).
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false, globalSetup: [CHROMIUM] } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: SHARED,
          globalSetup: [CHROMIUM],
        },
      },
    ],
    // Real processes and servers: give them room, and keep the 2-core machines from thrashing.
    testTimeout: 60_000,
    // Polls wait on real processes and a real browser; on a loaded 2-core CI machine 1 s is too short.
    expect: { poll: { timeout: 15_000, interval: 50 } },
    // Agent tests export each conversation and run it under nbconvert when they close (a kernel each).
    hookTimeout: 180_000,
    // No retry: a test that fails fails the run. Only a test marked timingExposed(reason)
    // (test/support/timing-exposed.ts) is tried once more; the summary reporter names each one that
    // needed it, and fails the run when it guards security or data.
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
