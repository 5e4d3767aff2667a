/**
 * Test options for a test exposed to the machine's timing (a race with the OS scheduler that a loaded
 * machine can lose although the code is right): it is tried once more before it fails. Nothing else
 * is retried (vitest.config.ts has no global retry). The reason is required and says what race it is;
 * the run's closing summary lists every test that needed its retry, and fails the run when the test
 * guards security or the user's data (test/support/summary-reporter.ts: guardsSecurityOrData).
 * Use: `it('…', timingExposed('why'), async () => …)` or `describe('…', timingExposed('why'), …)`.
 */
export function timingExposed(reason: string): { retry: number } {
  if (reason.trim().length < 20) throw new Error(`timingExposed needs a reason naming the race, not '${reason}'`);
  return { retry: 1 };
}
