/**
 * An MCP server's env variable or header name that almost always holds a secret (…TOKEN, …KEY,
 * Authorization): imports and the Settings form keep its value in the keychain, never in
 * settings.json or on screen (docs/mcp.md). A module of its own so the page can use it without zod.
 */
export function mcpNameLooksSecret(name: string): boolean {
  return /key|token|secret|passw|pwd|auth|credential|cookie|session|private/i.test(name);
}
