import type { ConversationItem } from '@contract';

/** What a provider adapter streams back, whatever its wire protocol. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
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

export interface ProviderRequest {
  model: string;
  system: string;
  /** The conversation so far; each adapter maps items to its own message format. */
  items: ConversationItem[];
  /** Empty when the model should answer with fenced code blocks instead of tool calls. */
  tools: ToolSpec[];
  temperature: number | null;
  maxOutputTokens: number | null;
  signal: AbortSignal;
}

export interface Provider {
  readonly name: string;
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
  listModels(signal?: AbortSignal): Promise<string[]>;
}
