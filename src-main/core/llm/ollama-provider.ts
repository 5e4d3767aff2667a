import { randomUUID } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { listOllamaModels, ollamaRoot } from './ollama-models';
import { toOpenAiMessages } from './openai-provider';
import type { Provider, ProviderEvent, ProviderRequest } from './provider';
import { errorMessage } from '@contract/error-message';

/**
 * Ollama through its own API (/api/chat), not its OpenAI-compatible endpoint: that endpoint ignores
 * `num_ctx`, so Ollama runs every model with its small default window and cuts a long prompt from
 * the front without saying so. Here each request sizes `options.num_ctx` to the conversation (within
 * the model's own length and the user's cap, both already in `contextWindow`) and keeps the model
 * loaded between calls (`keep_alive`).
 */

export interface OllamaProviderOptions {
  /** The base URL in settings; '/v1' at its end is dropped to reach the native API. */
  baseUrl: string;
  /** How long Ollama keeps the model in memory after a call ('30m', '-1' for ever, '0' to unload). */
  keepAlive: string;
}

/** num_ctx is rounded up to a multiple of this, so small changes in the prompt do not reload the model. */
const NUM_CTX_STEP = 4096;

interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
  tool_name?: string;
}

interface ChatLine {
  message?: { content?: string; thinking?: string; tool_calls?: Array<{ function?: { name?: string; arguments?: unknown } }> };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/** An HTTP error with the shape classifyFailure reads (status, message). */
export class OllamaError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'OllamaError';
  }
}

export class OllamaProvider implements Provider {
  readonly kind = 'ollama' as const;
  readonly endpoint: string;
  private readonly root: string;

  constructor(private readonly opts: OllamaProviderOptions) {
    this.root = ollamaRoot(opts.baseUrl);
    this.endpoint = this.root;
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const body = {
      model: req.model,
      messages: toOllamaMessages(toOpenAiMessages(req)),
      stream: true,
      keep_alive: this.opts.keepAlive,
      ...(req.tools.length
        ? {
            tools: req.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
      // Only when the user chose an effort: models without thinking refuse `think`.
      ...(req.reasoningEffort ? { think: req.reasoningEffort } : {}),
      options: {
        num_ctx: numCtx(req),
        ...(req.temperature !== null ? { temperature: req.temperature } : {}),
        ...(req.maxOutputTokensSet ? { num_predict: req.maxOutputTokens } : {}),
      },
    };
    const res = await this.post('/api/chat', body, req.signal);
    let stopReason: string | null = null;
    let index = 0;
    for await (const line of ndjson(res, req.signal)) {
      const chunk = line as ChatLine;
      if (chunk.error) throw new OllamaError(`Ollama: ${chunk.error}`, undefined);
      const message = chunk.message;
      if (message?.thinking) yield { type: 'thinking-delta', index: 0, text: message.thinking };
      if (message?.content) yield { type: 'text', text: message.content };
      for (const call of message?.tool_calls ?? []) {
        const args = call.function?.arguments;
        yield { type: 'tool-call-start', index, id: `call_${randomUUID().replace(/-/g, '')}`, name: call.function?.name ?? 'execute' };
        yield { type: 'tool-call-delta', index, argumentsDelta: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
        index++;
      }
      if (chunk.done) {
        stopReason = chunk.done_reason ?? 'stop';
        if (typeof chunk.prompt_eval_count === 'number' && typeof chunk.eval_count === 'number') {
          yield { type: 'usage', inputTokens: chunk.prompt_eval_count, outputTokens: chunk.eval_count };
        }
      }
    }
    yield { type: 'done', stopReason };
  }

  listModels(signal?: AbortSignal): Promise<string[]> {
    return listOllamaModels(this.opts.baseUrl, signal);
  }

  private async post(path: string, body: unknown, signal: AbortSignal): Promise<Response> {
    const url = `${this.root}${path}`;
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
    } catch (err) {
      if (signal.aborted) throw err;
      // The shape classifyFailure takes for a connection failure (retried, then "could not reach"); the
      // cause keeps the network code (ECONNREFUSED…) the user's message is made from.
      throw Object.assign(
        new OllamaError(
          `fetch failed: could not reach Ollama at ${this.root} (${errorMessage(err)}); is \`ollama serve\` running?`,
          undefined,
        ),
        { cause: err },
      );
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        /* not JSON: keep the text */
      }
      const hint =
        res.status === 404 && /not found/i.test(message)
          ? ` — pull it in Settings → Model, or run \`ollama pull ${(body as { model?: string }).model ?? ''}\``
          : '';
      throw new OllamaError(`Ollama answered ${res.status} to POST ${url}${explained(message)}${hint}`, res.status);
    }
    return res;
  }
}

/**
 * What the server said after the status, or a sentence saying it said nothing: a bare colon at the end
 * of the message (an empty body, as a proxy or a server at the wrong path sends) read as cut off.
 */
function explained(message: string): string {
  const said = message.trim();
  return said ? `: ${said}` : ' with an empty body (is this address an Ollama server?)';
}

/**
 * num_ctx for one request: the prompt plus the room left for the answer, rounded up to a step, never
 * above the window the history was fitted to (so nothing is cut by the server) nor below one step.
 */
export function numCtx(req: Pick<ProviderRequest, 'maxOutputTokens' | 'promptTokens' | 'contextWindow'>): number {
  const window = req.contextWindow ?? NUM_CTX_STEP * 2;
  const wanted = (req.promptTokens ?? 0) + req.maxOutputTokens;
  const rounded = Math.ceil(wanted / NUM_CTX_STEP) * NUM_CTX_STEP;
  return Math.max(Math.min(rounded, window), Math.min(NUM_CTX_STEP, window));
}

/** The OpenAI-shaped history (one mapping of our items, shared) in Ollama's message format. */
export function toOllamaMessages(messages: ChatCompletionMessageParam[]): OllamaMessage[] {
  const names = new Map<string, string>();
  return messages.map((m): OllamaMessage => {
    switch (m.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textOf(m.content) };
      case 'user': {
        if (typeof m.content === 'string') return { role: 'user', content: m.content };
        const images: string[] = [];
        let content = '';
        for (const part of m.content) {
          if (part.type === 'text') content += part.text;
          else if (part.type === 'image_url') images.push(part.image_url.url.replace(/^data:[^,]*,/, ''));
        }
        return { role: 'user', content, ...(images.length ? { images } : {}) };
      }
      case 'assistant': {
        const calls = (m.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
        for (const c of calls) names.set(c.id, c.function.name);
        return {
          role: 'assistant',
          content: textOf(m.content ?? ''),
          ...(calls.length
            ? { tool_calls: calls.map((c) => ({ function: { name: c.function.name, arguments: parseArgs(c.function.arguments) } })) }
            : {}),
        };
      }
      case 'tool':
        return { role: 'tool', content: textOf(m.content), tool_name: names.get(m.tool_call_id) ?? 'execute' };
      default:
        return { role: 'user', content: '' };
    }
  });
}

function textOf(content: string | Array<{ type: string; text?: string }>): string {
  return typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('');
}

function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The JSON values of a newline-delimited JSON body, as they arrive. */
export async function* ndjson(res: Response, signal: AbortSignal): AsyncIterable<unknown> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (signal.aborted) return;
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield JSON.parse(line) as unknown;
    }
  }
  const last = (buffer + decoder.decode()).trim();
  if (last) yield JSON.parse(last) as unknown;
}
