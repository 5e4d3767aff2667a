// No zod here: the page imports this, and zod probes eval, which the app's CSP refuses.

/**
 * `metadata.mcpUi` of a display_data output that holds an MCP server's interactive UI (its HTML in
 * `text/html`, docs/mcp.md): the page renders it in the output frame with no network at all.
 */
export interface McpUiOutputMeta {
  uri: string;
  server: string;
  mimeType: string;
}

/**
 * The MCP UI an output holds, or null for any other output (or metadata not in that shape).
 */
export function mcpUiOf(output: { output_type: string; metadata?: Record<string, unknown> }): McpUiOutputMeta | null {
  if (output.output_type !== 'display_data') return null;
  const m = output.metadata?.mcpUi;
  if (typeof m !== 'object' || m === null) return null;
  const { uri, server, mimeType } = m as Record<string, unknown>;
  return typeof uri === 'string' && typeof server === 'string' && typeof mimeType === 'string' ? { uri, server, mimeType } : null;
}
