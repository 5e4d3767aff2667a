// How MCP tools are named for the model: `mcp__<server>__<tool>`, in the characters every provider
// accepts (OpenAI and Anthropic allow [A-Za-z0-9_-], at most 64). The cell records the same call as
// the language `mcp:<server>/<tool>`, so history can rebuild the name without the server running.

export const MCP_PREFIX = 'mcp__';
const MAX_TOOL_NAME = 64;

export function sanitise(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The name offered to the model, or null when it would not fit the providers' limit. */
export function offeredName(server: string, tool: string): string | null {
  const name = `${MCP_PREFIX}${sanitise(server)}__${sanitise(tool)}`;
  return name.length <= MAX_TOOL_NAME ? name : null;
}

/** The cell language for a call (at most 62 characters, under the contract's 64). */
export function cellLanguage(server: string, tool: string): string {
  return `mcp:${sanitise(server)}/${sanitise(tool)}`;
}

export function isMcpLanguage(language: string): boolean {
  return language.startsWith('mcp:');
}

/** The tool name a recorded MCP cell was called by (history sent back to the model). */
export function nameFromLanguage(language: string): string | null {
  if (!isMcpLanguage(language)) return null;
  const rest = language.slice(4);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  return `${MCP_PREFIX}${rest.slice(0, slash)}__${rest.slice(slash + 1)}`;
}

/** The cell language for an offered name (server names hold no `__` and end in no `_`, so the split is sure). */
export function languageFromName(name: string): string | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf('__');
  if (split <= 0) return null;
  return `mcp:${rest.slice(0, split)}/${rest.slice(split + 2)}`;
}
