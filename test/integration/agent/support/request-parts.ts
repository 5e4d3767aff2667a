// Parts of a request the scripted model server recorded, read the same way for both protocols.

export function systemPromptOf(body: unknown, protocol: 'openai' | 'anthropic'): string {
  if (protocol === 'anthropic') {
    const system = (body as { system?: string | Array<{ text: string }> }).system ?? '';
    return typeof system === 'string' ? system : system.map((b) => b.text).join('\n');
  }
  const first = (body as { messages: Array<{ role: string; content: string }> }).messages[0];
  return first?.role === 'system' ? first.content : '';
}

/** The names of the tools the request declares. */
export function toolNamesOf(body: unknown, protocol: 'openai' | 'anthropic'): string[] {
  const tools = (body as { tools?: Array<{ name?: string; function?: { name: string } }> }).tools ?? [];
  return tools.map((t) => (protocol === 'anthropic' ? (t.name ?? '') : (t.function?.name ?? '')));
}

/** The request's last message as JSON text: where the result of the previous step's tool call is. */
export function lastRequestText(body: unknown): string {
  const messages = (body as { messages?: unknown[] }).messages ?? [];
  return JSON.stringify(messages.at(-1) ?? null);
}
