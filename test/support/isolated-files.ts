// The test files that keep a test process of their own (vitest.config.ts's `isolated` project). Every
// other file shares one (isolate: false), so it must leave the process as it found it. These change
// something process-wide for a while — an environment variable, PATH, a listener whose count the file
// asserts — that the app's modules may read or cache meanwhile. A file that changes process.env,
// the working folder, process listeners or globals without putting them back in a `finally` or an
// after-hook belongs here: test/unit/lint/isolated-files.test.ts holds every test file to that.
export const ISOLATED = [
  'test/integration/exec/runner-helpers.test.ts',
  'test/integration/start-app.test.ts',
  'test/integration/app-warm-up.test.ts',
  'test/integration/agent/mcp-turn.test.ts',
  'test/integration/agent/long-turn-listeners.test.ts',
  'test/integration/security/key-canary.test.ts',
  'test/security/attacks/app-programs.test.ts',
];
