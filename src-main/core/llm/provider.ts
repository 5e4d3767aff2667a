import type { ConversationItem, ProviderKind, ReasoningEffort } from '@contract';

/** What a provider adapter streams back, whatever its wire protocol. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  /** Thinking text as it streams; `index` tells blocks of one reply apart. */
  | { type: 'thinking-delta'; index: number; text: string }
  /** A whole thinking block, signed; it replaces the deltas streamed under the same `index`. */
  | { type: 'thinking'; index?: number; thinking: string; signature: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'done'; stopReason: string | null };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** The image types both OpenAI and Anthropic accept as inline (base64) image parts. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageData {
  mime: ImageMime;
  base64: string;
}

export interface ProviderRequest {
  model: string;
  system: string;
  /** The conversation so far; each adapter maps items to its own message format. */
  items: ConversationItem[];
  /**
   * Empty when the model should answer with fenced code blocks instead of tool calls; the adapters
   * then write earlier runs as code blocks and results as user messages, because both APIs refuse a
   * history holding tool calls when no tools are declared.
   */
  tools: ToolSpec[];
  /**
   * Image attachments, by attachment path, already read from the workspace. An attachment missing
   * here (not an image, unreadable, or a model without vision) is described to the model in text.
   */
  images: ReadonlyMap<string, ImageData>;
  /**
   * Screenshots of computer calls, by cell id (docs/computer-use.md): sent with that call's result in
   * the provider's own image form. Only the latest few are here; older calls go back as text.
   */
  screenshots?: ReadonlyMap<string, ImageData>;
  temperature: number | null;
  /** Output tokens to allow; Anthropic requires a value, OpenAI-family servers get it only when set. */
  maxOutputTokens: number;
  /** True when the user set maxOutputTokens (so OpenAI-family requests send it). */
  maxOutputTokensSet: boolean;
  /**
   * Anthropic extended thinking: the budget, already below maxOutputTokens; absent or null → thinking is
   * not asked for. Other providers ignore it.
   */
  thinkingBudgetTokens?: number | null;
  /** Estimated tokens of the whole prompt, and the window the history was fitted to (Ollama sizes num_ctx from them). */
  promptTokens?: number;
  contextWindow?: number;
  /** OpenAI-family reasoning effort, sent only when set. Anthropic ignores it. */
  reasoningEffort?: ReasoningEffort | null;
  signal: AbortSignal;
}

export interface Provider {
  readonly kind: ProviderKind;
  /** The base URL the calls go to, for messages that name what failed. */
  readonly endpoint: string;
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
  listModels(signal?: AbortSignal): Promise<string[]>;
}
