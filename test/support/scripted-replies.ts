import type { ScriptedReply } from '../fixtures/llm-server';

/** One `execute` call the scripted model makes: its id, the cell's language and code, and any text before it. */
export interface ExecuteCall {
  id: string;
  language: string;
  code: string;
  text?: string;
}

/** The scripted model's reply that makes one `execute` call. */
export function executeCall(call: ExecuteCall): ScriptedReply {
  const { id, language, code, text } = call;
  const reply: ScriptedReply = { kind: 'tool', calls: [{ id, name: 'execute', arguments: { language, code } }] };
  if (text !== undefined) reply.text = text;
  return reply;
}

/**
 * The commonest scripted turn: the model runs one cell, then answers `closing` once it has the result.
 * Spread into `llm.enqueue(...)`.
 */
export function executeThenSay(call: ExecuteCall, closing: string): [ScriptedReply, ScriptedReply] {
  return [executeCall(call), { kind: 'text', text: closing }];
}

/**
 * A turn whose model runs several cells of one language in one reply (parallel tool calls, ids
 * call_1, call_2, …), then answers `closing`. Spread into `llm.enqueue(...)`.
 */
export function executeAllThenSay(language: string, codes: string[], closing: string): [ScriptedReply, ScriptedReply] {
  const calls = codes.map((code, i) => ({ id: `call_${i + 1}`, name: 'execute', arguments: { language, code } }));
  return [
    { kind: 'tool', calls },
    { kind: 'text', text: closing },
  ];
}
