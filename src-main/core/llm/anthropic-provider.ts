import type Anthropic from '@anthropic-ai/sdk';
import type { Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import { DEFAULT_BASE_URLS } from '@contract/provider-urls';
import { REDACTED_PREFIX, toAnthropicMessages } from './anthropic-messages';
import type { Provider, ProviderEvent, ProviderRequest } from './provider';

export interface AnthropicProviderOptions {
  apiKey: string;
  /** null → Anthropic's own endpoint. */
  baseUrl: string | null;
}

/** Anthropic Messages with streaming, tool use and thinking blocks, through the official SDK. */
export class AnthropicProvider implements Provider {
  readonly kind = 'anthropic' as const;
  readonly endpoint: string;
  private clientPromise: Promise<Anthropic> | null = null;

  constructor(private readonly opts: AnthropicProviderOptions) {
    this.endpoint = opts.baseUrl ?? DEFAULT_BASE_URLS.anthropic;
  }

  /** The SDK is loaded on the first call, not at start-up (see OpenAiProvider.client). */
  private client(): Promise<Anthropic> {
    this.clientPromise ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicSdk }) =>
        new AnthropicSdk({
          apiKey: this.opts.apiKey,
          baseURL: this.opts.baseUrl ?? undefined,
          // The agent retries itself so it can tell the user and never retry after the first token.
          maxRetries: 0,
        }),
    );
    return this.clientPromise;
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: Tool[] = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: { type: 'object', ...t.parameters },
    }));
    const budget = req.thinkingBudgetTokens ?? null;
    const stream = await (
      await this.client()
    ).messages.create(
      {
        model: req.model,
        system: req.system,
        messages: toAnthropicMessages(req),
        // The API wants budget_tokens < max_tokens; prepareStep already raised it, this guards other callers.
        max_tokens: budget === null ? req.maxOutputTokens : Math.max(req.maxOutputTokens, budget + 1),
        stream: true,
        ...(tools.length ? { tools } : {}),
        // Anthropic refuses a changed temperature (or top_k) together with thinking, so none is sent then.
        // Settings allow OpenAI's 0–2; Anthropic accepts 0–1.
        ...(budget !== null
          ? { thinking: { type: 'enabled' as const, budget_tokens: budget } }
          : req.temperature !== null
            ? { temperature: Math.min(req.temperature, 1) }
            : {}),
      },
      { signal: req.signal },
    );
    let inputTokens = 0;
    let outputTokens = 0;
    let stopReason: string | null = null;
    // Thinking arrives as deltas and its signature last; the block is only usable whole.
    const thinking = new Map<number, { text: string; signature: string }>();
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start': {
          const u = event.message.usage;
          inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          outputTokens = u.output_tokens;
          break;
        }
        case 'content_block_start': {
          const block = event.content_block;
          if (block.type === 'text' && block.text) {
            yield { type: 'text', text: block.text };
          } else if (block.type === 'thinking') {
            thinking.set(event.index, { text: block.thinking, signature: block.signature });
            if (block.thinking) yield { type: 'thinking-delta', index: event.index, text: block.thinking };
          } else if (block.type === 'redacted_thinking') {
            yield { type: 'thinking', thinking: '', signature: REDACTED_PREFIX + block.data };
          } else if (block.type === 'tool_use') {
            yield { type: 'tool-call-start', index: event.index, id: block.id, name: block.name };
          }
          break;
        }
        case 'content_block_delta': {
          const delta = event.delta;
          if (delta.type === 'text_delta') yield { type: 'text', text: delta.text };
          else if (delta.type === 'input_json_delta') {
            if (delta.partial_json) yield { type: 'tool-call-delta', index: event.index, argumentsDelta: delta.partial_json };
          } else if (delta.type === 'thinking_delta') {
            const t = thinking.get(event.index);
            if (t && delta.thinking) {
              t.text += delta.thinking;
              yield { type: 'thinking-delta', index: event.index, text: delta.thinking };
            }
          } else if (delta.type === 'signature_delta') {
            const t = thinking.get(event.index);
            if (t) t.signature += delta.signature;
          }
          break;
        }
        case 'content_block_stop': {
          const t = thinking.get(event.index);
          if (t) {
            thinking.delete(event.index);
            yield { type: 'thinking', index: event.index, thinking: t.text, signature: t.signature };
          }
          break;
        }
        case 'message_delta':
          // Cumulative counts for this message, not increments.
          outputTokens = event.usage.output_tokens;
          if (event.usage.input_tokens !== null && event.usage.input_tokens !== undefined) {
            inputTokens = Math.max(
              inputTokens,
              event.usage.input_tokens + (event.usage.cache_creation_input_tokens ?? 0) + (event.usage.cache_read_input_tokens ?? 0),
            );
          }
          stopReason = event.delta.stop_reason;
          break;
        case 'message_stop':
          break;
      }
    }
    yield { type: 'usage', inputTokens, outputTokens };
    yield { type: 'done', stopReason };
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of (await this.client()).models.list({ limit: 100 }, { signal })) ids.push(model.id);
    return ids;
  }
}
