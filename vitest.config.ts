import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { builtJournalWorker } from './test/support/built-journal-worker';
import { ISOLATED } from './test/support/isolated-files';
import { useRunTmp } from './test/support/run-tmp';
import { withShimsResolved } from './test/support/test-path';

// Every test process inherits this PATH (test/support/test-path.ts says why).
process.env.PATH = withShimsResolved(process.env.PATH ?? '');
// And this TMPDIR: the run's own folder, named and removed when the run ends (test/support/run-tmp.ts).
useRunTmp();
// And no shell cell sources the person's rc files (docs/exec.md): on these machines ~/.bashrc runs
// pyenv's init, about 300 programs per shell session. The tests that are about the rc files start
// their sessions without it (test/support/user-rc.ts).
process.env.OI_NO_USER_RC = '1';

// Test files run in shared processes (isolate: false): a file's own process, with its module graph
// loaded again, costs about a CPU-second (measured on test/integration/exec's 24 files under the same
// load: 195 CPU-seconds shared against 221 isolated, and the import phase 16 s against 143 s). A file
// may share when it leaves the process as it found it: process.env and cwd put back, no module mocked,
// nothing global patched — vitest itself resets vi.setConfig and restores spies after each file, and
// test/support/file-cleanup.ts kills what a file left running. The files in ISOLATED change something
// process-wide for a while (an environment variable, PATH, a listener whose count the file asserts), so
// they keep a process of their own (test/support/isolated-files.ts; a lint test keeps the list whole).

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
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false, globalSetup: [CHROMIUM] },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, globalSetup: [CHROMIUM] } },
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
    // Three test processes on two cores: the tests wait on real processes much of the time, and under
    // CI's two busy loops each runnable process gets an equal share of the cores, so a third worker
    // takes the suite from about 0.85 of a core to more (CONTRIBUTING.md, the cost section).
    maxWorkers: 3,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
