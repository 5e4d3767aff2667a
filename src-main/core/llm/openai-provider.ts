import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { EXECUTE_TOOL_NAME } from './execute-tool';
import { cellResultText, toHistory } from './history-steps';
import type { Provider, ProviderEvent, ProviderRequest } from './provider';

export interface OpenAiProviderOptions {
  apiKey: string;
  /** null → OpenAI's own endpoint. */
  baseUrl: string | null;
  name?: string;
  maxRetries?: number;
}

/** OpenAI Chat Completions (and every server that speaks it) through the official SDK. */
export class OpenAiProvider implements Provider {
  readonly name: string;
  private readonly client: OpenAI;

  constructor(opts: OpenAiProviderOptions) {
    this.name = opts.name ?? 'openai';
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseUrl ?? undefined,
      maxRetries: opts.maxRetries ?? 2,
      // The renderer never sees this client; it lives in main only.
      dangerouslyAllowBrowser: false,
    });
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: ChatCompletionTool[] = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const stream = await this.client.chat.completions.create(
      {
        model: req.model,
        messages: toOpenAiMessages(req.system, req),
        stream: true,
        stream_options: { include_usage: true },
        ...(tools.length ? { tools } : {}),
        ...(req.temperature !== null ? { temperature: req.temperature } : {}),
        ...(req.maxOutputTokens !== null ? { max_completion_tokens: req.maxOutputTokens } : {}),
      },
      { signal: req.signal },
    );
    let stopReason: string | null = null;
    for await (const chunk of stream) {
      if (chunk.usage) {
        yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta?.content) yield { type: 'text', text: delta.content };
      for (const call of delta?.tool_calls ?? []) {
        if (call.id) yield { type: 'tool-call-start', index: call.index, id: call.id, name: call.function?.name ?? EXECUTE_TOOL_NAME };
        if (call.function?.arguments) yield { type: 'tool-call-delta', index: call.index, argumentsDelta: call.function.arguments };
      }
      if (choice.finish_reason) stopReason = choice.finish_reason;
    }
    yield { type: 'done', stopReason };
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of this.client.models.list({ signal })) ids.push(model.id);
    return ids.sort();
  }
}

function toOpenAiMessages(system: string, req: ProviderRequest): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const entry of toHistory(req.items)) {
    if (entry.kind === 'user') {
      messages.push({ role: 'user', content: entry.item.text });
      continue;
    }
    const toolCalls = entry.toolCells.map((cell) => ({
      id: cell.toolCallId ?? cell.id,
      type: 'function' as const,
      function: { name: EXECUTE_TOOL_NAME, arguments: JSON.stringify({ language: cell.language, code: cell.code }) },
    }));
    messages.push({ role: 'assistant', content: entry.text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    for (const cell of entry.toolCells) {
      messages.push({ role: 'tool', tool_call_id: cell.toolCallId ?? cell.id, content: cellResultText(cell) });
    }
    for (const cell of entry.fencedCells) {
      messages.push({ role: 'user', content: `Output of the ${cell.language} code block:\n${cellResultText(cell)}` });
    }
  }
  return messages;
}
