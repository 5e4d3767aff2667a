import type { CellItem, ConversationItem } from '@contract';
import { describe, expect, it } from 'vitest';
import { REDACTED_PREFIX, toAnthropicMessages } from '../../../src-main/core/llm/anthropic-messages';
import { executeTool } from '../../../src-main/core/llm/execute-tool';
import { toOpenAiMessages } from '../../../src-main/core/llm/openai-provider';

const cell = (over: Partial<CellItem>): CellItem => ({
  kind: 'cell',
  id: 'cell1',
  step: 's1',
  toolCallId: 'call.with:odd/chars',
  language: 'shell',
  code: 'ls',
  status: 'failed',
  approval: 'auto',
  outputs: [],
  exitCode: 1,
  durationMs: 1,
  executionCount: 1,
  startedAt: null,
  limits: null,
  resultForModel: 'boom',
  ...over,
});
const items: ConversationItem[] = [
  { kind: 'user', id: 'u1', text: 'go', attachments: [], createdAt: '' },
  {
    kind: 'assistant',
    id: 'a1',
    step: 's1',
    text: 'ok  \n',
    thinking: [{ thinking: '', signature: `${REDACTED_PREFIX}opaque==` }],
    interrupted: false,
    createdAt: '',
  },
  cell({}),
  { kind: 'notice', id: 'n1', level: 'info', text: 'not for the model', createdAt: '' },
  { kind: 'user', id: 'u2', text: 'and?', attachments: [], createdAt: '' },
];

describe('history for Anthropic', () => {
  it('sends redacted thinking back as it came, marks failed results as errors, and merges consecutive user content', () => {
    const messages = toAnthropicMessages({ items, tools: [executeTool], images: new Map() });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const assistant = messages[1]?.content as unknown as Array<Record<string, unknown>>;
    expect(assistant[0]).toEqual({ type: 'redacted_thinking', data: 'opaque==' });
    expect(assistant[1]).toEqual({ type: 'text', text: 'ok' });
    expect(assistant[2]).toMatchObject({ type: 'tool_use', id: 'call_with_odd_chars', input: { language: 'shell', code: 'ls' } });
    const results = messages[2]?.content as unknown as Array<Record<string, unknown>>;
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_with_odd_chars', content: 'boom', is_error: true });
    expect(results[1]).toMatchObject({ type: 'text', text: 'and?' });
  });

  it('writes earlier tool calls as code blocks when no tools are declared', () => {
    const messages = toAnthropicMessages({ items, tools: [], images: new Map() });
    const assistant = messages[1]?.content as unknown as Array<Record<string, unknown>>;
    expect(assistant.map((b) => b.type)).toEqual(['redacted_thinking', 'text']);
    expect(assistant[1]?.text).toBe('ok  \n\n```shell\nls\n```');
    expect((messages[2]?.content as unknown as Array<Record<string, unknown>>)[0]?.text).toBe('Output of the shell block:\nboom');
  });
});

describe('history for OpenAI', () => {
  it('writes earlier tool calls as code blocks with a user message of results when no tools are declared', () => {
    const messages = toOpenAiMessages({ system: 'sys', items, tools: [], images: new Map() });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'user']);
    expect(messages[2]).toEqual({ role: 'assistant', content: 'ok  \n\n```shell\nls\n```' });
    expect(messages[3]).toEqual({ role: 'user', content: 'Output of the shell block:\nboom' });
  });

  it('uses a longer fence when the code itself holds backticks', () => {
    const messages = toOpenAiMessages({
      system: 's',
      items: [items[0] as ConversationItem, cell({ code: 'echo ```' })],
      tools: [],
      images: new Map(),
    });
    expect(messages[2]).toMatchObject({ content: '````shell\necho ```\n````' });
  });
});
