import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ScriptedLlm } from '../../../fixtures/llm-server';

// The official SDKs pointed at the scripted model server, and the inputs the protocol tests share.

export const openaiFor = (llm: ScriptedLlm, maxRetries = 0) => new OpenAI({ apiKey: 'test-key', baseURL: llm.openaiBaseUrl, maxRetries });
export const anthropicFor = (llm: ScriptedLlm, maxRetries = 0) =>
  new Anthropic({ apiKey: 'test-key', baseURL: llm.anthropicBaseUrl, maxRetries });

/** What a call that must fail threw. */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

// Every escape JSON has, plus multi-byte text, so arbitrary split points land somewhere awkward.
export const TRICKY = {
  code: 'print("C:\\Users\\me")\n\tprint(\'done\')\r\n',
  note: '日本語のテキスト 🚀👩‍💻 ünïcödé \u0001 end',
  nested: { list: [1, 2.5, -3e-7, true, null], empty: '' },
};
export const RAW_ARGS = '{"path": "/tmp/a b.txt",\n  "mode": "w"}';

export const USER = [{ role: 'user' as const, content: 'hi' }];
export const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'run_code', parameters: { type: 'object', properties: { code: { type: 'string' } } } } },
  { type: 'function', function: { name: 'write_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];
