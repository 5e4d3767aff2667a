import type { ComputerService } from './agent/computer-cell';
import type { EnvironmentSources } from './agent/environment-context';
import type { RetryPolicy } from './llm/retry-with-backoff';

/**
 * Parts a test hands createApp where the real one cannot serve it; the entry points pass none, so the
 * app is always wired the same way (test/support/agent-harness.ts names why each is replaced there).
 */
export interface AppParts {
  /** How failed model calls are retried: a test records the delays instead of waiting them out. */
  retry?: RetryPolicy;
  /** What the model is told about the machine: a fixed stand-in spawns no detection processes and keeps the date still. */
  environment?: EnvironmentSources;
  /** The screen for computer use: a test's own X display and settle time. */
  computer?: ComputerService;
  /** No workspace checkpoints around the agent's cells (the Rewind requests still answer from the store). */
  checkpoints?: false;
}
