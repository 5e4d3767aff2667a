import { afterEach } from 'vitest';
import { startAgentHarness, type AgentHarness, type HarnessOptions } from './agent-harness';

/**
 * The agent harness (agent-harness.ts) for the tests of one file: the function returned starts one,
 * and every harness a test started is closed after it, whether the test passed or not.
 */
export function useAgentHarness(): (opts?: HarnessOptions) => Promise<AgentHarness> {
  const running: AgentHarness[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((h) => h.close()));
  });
  return async (opts) => {
    const h = await startAgentHarness(opts);
    running.push(h);
    return h;
  };
}
