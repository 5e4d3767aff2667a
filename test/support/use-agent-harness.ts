import { startAgentHarness, type AgentHarness, type HarnessOptions } from './agent-harness';
import { closedAfterEach } from './closed-after-each';

/**
 * The agent harness (agent-harness.ts) for the tests of one file: the function returned starts one,
 * and every harness a test started is closed after it, whether the test passed or not.
 */
export function useAgentHarness(): (opts?: HarnessOptions) => Promise<AgentHarness> {
  return closedAfterEach(startAgentHarness);
}
