import type { Settings } from '@contract';
import type { McpTool } from '../mcp/mcp-manager';
import type { CheckpointWrites } from './checkpoint-writes';

// What the tool calls of one model step share (step-calls.ts, code-call.ts), and what each tells its step.

/** What one call did to its step: 'failed' counts as a failed attempt, 'stop' ends the turn after the step. */
export type CallOutcome = 'done' | 'failed' | 'stop';

/** What the calls of one step share. */
export interface CallContext {
  /** The conversation's settings for this step (its profile and model choice applied). */
  settings: Settings;
  /** The MCP tools offered in this step's model call. */
  mcpTools: McpTool[];
  /** The turn's signal: the composer's Stop. */
  signal: AbortSignal;
  errors: ErrorMemory;
  /**
   * The save of the model's reply, written while the step's first cell gets ready (its checkpoint):
   * nothing the model asked for runs before its call is on disk (docs/agent.md#saving).
   */
  recorded: Promise<void>;
  /** The checkpoint lists the step's cells are still writing; the step's last save goes beside them. */
  behind: CheckpointWrites;
}

/** The last failed code cell's result, kept across the turn's steps: a repeat of it is pointed out to the model. */
export interface ErrorMemory {
  last: string | null;
}
