// The request bodies the scripted model server records (llm.requests[n].body), typed with the fields
// the agent tests read: a cast, not a check.

/** An OpenAI chat-completions request. */
export interface OpenAiBody {
  messages: Array<{
    role: string;
    content: unknown;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  }>;
  tools?: Array<{ function: { name: string; parameters: Record<string, unknown> } }>;
}

/** An Anthropic messages request. */
export interface AnthropicBody {
  system: string;
  max_tokens: number;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
  tools?: Array<{ name: string; input_schema: Record<string, unknown> }>;
}
