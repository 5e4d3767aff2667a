import { randomUUID } from 'node:crypto';
import type { ProviderKind } from '@contract';
import { DEFAULT_BASE_URLS } from '@contract/provider-urls';
import type OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { EXECUTE_TOOL_NAME, toolCallOf } from './execute-tool';
import { cellResultText, fencedResultsText, toHistory } from './history-steps';
import type { Provider, ProviderEvent, ProviderRequest } from './provider';
import { userContent } from './user-content';

export interface OpenAiProviderOptions {
  kind: ProviderKind;
  apiKey: string;
  /** null → OpenAI's own endpoint. */
  baseUrl: string | null;
  /** Replaces GET /models (Ollama lists its models at /api/tags). */
  listModels?: (signal?: AbortSignal) => Promise<string[]>;
}

/**
 * Reasoning models behind OpenAI-compatible servers stream their reasoning beside the answer, in a
 * field the OpenAI API itself does not have: `reasoning_content` (vLLM, LM Studio, DeepSeek) or
 * `reasoning` (Ollama, OpenRouter). It is shown as thinking; having no signature, it is never sent back.
 */
const REASONING_BLOCK = 0;

function reasoningText(delta: object | undefined): string {
  if (!delta) return '';
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const text = fields.reasoning_content ?? fields.reasoning;
  return typeof text === 'string' ? text : '';
}

/** OpenAI Chat Completions (and every server that speaks it: Ollama, LM Studio, vLLM…) through the official SDK. */
export class OpenAiProvider implements Provider {
  readonly kind: ProviderKind;
  readonly endpoint: string;
  private clientPromise: Promise<OpenAI> | null = null;
  private readonly modelLister: OpenAiProviderOptions['listModels'];

  constructor(opts: OpenAiProviderOptions) {
    this.kind = opts.kind;
    this.endpoint = opts.baseUrl ?? DEFAULT_BASE_URLS.openai;
    this.modelLister = opts.listModels;
    this.options = opts;
  }

  private readonly options: OpenAiProviderOptions;

  /** The SDK is loaded on the first call, not at start-up: most runs use one provider, and `oi --help` none. */
  private client(): Promise<OpenAI> {
    this.clientPromise ??= import('openai').then(
      ({ default: OpenAISdk }) =>
        new OpenAISdk({
          apiKey: this.options.apiKey,
          baseURL: this.options.baseUrl ?? undefined,
          // The agent retries itself (retry-with-backoff.ts) so it can tell the user and never retry
          // after the first token; SDK retries would hide both.
          maxRetries: 0,
        }),
    );
    return this.clientPromise;
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: ChatCompletionTool[] = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    // OpenAI itself wants max_completion_tokens; local servers still know only max_tokens.
    const maxTokens = req.maxOutputTokensSet
      ? this.kind === 'openai'
        ? { max_completion_tokens: req.maxOutputTokens }
        : { max_tokens: req.maxOutputTokens }
      : {};
    const stream = await (
      await this.client()
    ).chat.completions.create(
      {
        model: req.model,
        messages: toOpenAiMessages(req),
        stream: true,
        stream_options: { include_usage: true },
        ...(tools.length ? { tools } : {}),
        ...(req.temperature !== null ? { temperature: req.temperature } : {}),
        // Only when the user chose one: models without reasoning refuse the parameter.
        ...(req.reasoningEffort ? { reasoning_effort: req.reasoningEffort } : {}),
        ...maxTokens,
      },
      { signal: req.signal },
    );
    let stopReason: string | null = null;
    let usage: { inputTokens: number; outputTokens: number } | null = null;
    // Some compatible servers repeat the id on every fragment, or send none: a call starts once per index.
    const started = new Map<number, string>();
    for await (const chunk of stream) {
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta;
      const reasoning = reasoningText(delta);
      if (reasoning) yield { type: 'thinking-delta', index: REASONING_BLOCK, text: reasoning };
      if (delta?.content) yield { type: 'text', text: delta.content };
      for (const call of delta?.tool_calls ?? []) {
        const index = call.index ?? 0;
        if (!started.has(index)) {
          const id = call.id || `call_${randomUUID().replace(/-/g, '')}`;
          started.set(index, id);
          yield { type: 'tool-call-start', index, id, name: call.function?.name ?? EXECUTE_TOOL_NAME };
        }
        if (call.function?.arguments) yield { type: 'tool-call-delta', index, argumentsDelta: call.function.arguments };
      }
      if (choice.finish_reason) stopReason = choice.finish_reason;
    }
    if (usage) yield { type: 'usage', ...usage };
    yield { type: 'done', stopReason };
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    if (this.modelLister) return this.modelLister(signal);
    const ids: string[] = [];
    for await (const model of (await this.client()).models.list({ signal })) ids.push(model.id);
    return ids.sort();
  }
}

export function toOpenAiMessages(
  req: Pick<ProviderRequest, 'system' | 'items' | 'tools' | 'images' | 'screenshots'>,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: req.system }];
  for (const entry of toHistory(req.items, { tools: req.tools.length > 0 })) {
    if (entry.kind === 'user') {
      const { text, images } = userContent(entry.item, req.images);
      if (images.length === 0) {
        messages.push({ role: 'user', content: text });
      } else {
        const parts: ChatCompletionContentPart[] = [{ type: 'text', text }];
        for (const image of images) parts.push({ type: 'image_url', image_url: { url: `data:${image.mime};base64,${image.base64}` } });
        messages.push({ role: 'user', content: parts });
      }
      continue;
    }
    const toolCalls = entry.toolCells.map((cell) => ({
      id: cell.toolCallId ?? cell.id,
      type: 'function' as const,
      function: { name: toolCallOf(cell).name, arguments: JSON.stringify(toolCallOf(cell).input) },
    }));
    const content = entry.fencedCells.length ? entry.transcript : entry.text;
    // A step that only thought (an Anthropic reply, before a switch of provider) has nothing to say here.
    if (!content && toolCalls.length === 0 && entry.fencedCells.length === 0) continue;
    messages.push({ role: 'assistant', content: content || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    for (const cell of entry.toolCells) {
      messages.push({ role: 'tool', tool_call_id: cell.toolCallId ?? cell.id, content: cellResultText(cell) });
    }
    // Chat Completions' tool messages carry text only: the screenshots follow as one user message of image parts.
    const shots = entry.toolCells.flatMap((cell) => {
      const shot = req.screenshots?.get(cell.id);
      return shot ? [{ id: cell.toolCallId ?? cell.id, shot }] : [];
    });
    if (shots.length)
      messages.push({
        role: 'user',
        content: shots.flatMap(({ id, shot }): ChatCompletionContentPart[] => [
          { type: 'text', text: `Screenshot after computer call ${id}:` },
          { type: 'image_url', image_url: { url: `data:${shot.mime};base64,${shot.base64}` } },
        ]),
      });
    if (entry.fencedCells.length) messages.push({ role: 'user', content: fencedResultsText(entry.fencedCells) });
  }
  return messages;
}
