import type { Reporter, TestModule } from 'vitest/node';

// CI reads a plain closing line ("N passed, N failed") to know tests really ran; vitest's own
// summary is not in a shape it recognises, so print one. Tests that passed only when tried again
// (vitest.config.ts: retry) are named above it: each is a race to find and fix, not a pass to forget.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const flaky: string[] = [];
    for (const mod of modules) {
      // A file that failed to load or whose hooks threw has no failed test, but it did fail.
      if (mod.state() === 'failed' && [...mod.children.allTests('failed')].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        if (state === 'passed' && test.diagnostic()?.flaky)
          flaky.push(`${mod.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
      }
    }
    if (flaky.length > 0)
      process.stdout.write(`\nflaky: ${flaky.length} passed only when tried again:\n${flaky.map((name) => `  ${name}\n`).join('')}`);
    process.stdout.write(
      `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped${flaky.length > 0 ? ` (${flaky.length} flaky)` : ''}\n`,
    );
  }
}
