import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@contract';

// Small shapes every tool answers with. A refusal or a failure is an error result (isError), never a
// thrown exception: the client's model reads it and can correct itself.

export const text = (body: string): CallToolResult => ({ content: [{ type: 'text', text: body }] });

export const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

export const failure = (err: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: errorMessage(err) }] });

/** Runs a tool body, turning anything it throws into an error result naming the problem. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    return failure(err);
  }
}
