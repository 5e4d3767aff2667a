/** The parts of a tool result the app shows and tells the model about. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  /** An interactive UI resource's HTML (mcp-ui-resource.ts), rendered in the isolated output frame. */
  | { type: 'ui'; uri: string; mimeType: string; html: string }
  | { type: 'other'; text: string };

/** One part of an MCP tool result (text, image, resource, link) as the app shows it. */
export function toContent(part: Record<string, unknown>): McpContent {
  if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part.type === 'image' && typeof part.data === 'string') {
    return { type: 'image', data: part.data, mimeType: typeof part.mimeType === 'string' ? part.mimeType : 'image/png' };
  }
  if (part.type === 'resource_link')
    return {
      type: 'other',
      text: `[resource link: ${String(part.uri)}${typeof part.name === 'string' && part.name ? ` (${part.name})` : ''}]`,
    };
  if (part.type === 'resource' && typeof part.resource === 'object' && part.resource !== null) {
    const r = part.resource as Record<string, unknown>;
    return {
      type: 'other',
      text: typeof r.text === 'string' ? `[resource ${String(r.uri)}]\n${r.text}` : `[binary resource ${String(r.uri)}]`,
    };
  }
  return { type: 'other', text: `[${String(part.type)} content not shown]` };
}
