import type { McpServerConfig } from '@contract';

// Where a server's secret env values and headers live in the keychain. settings.json holds only the
// names (secretEnv / secretHeaders); the values are read in main when the server starts.

export type McpSecretKind = 'env' | 'header';

export const MCP_ACCOUNT_PREFIX = 'mcp:';

export function mcpSecretAccount(server: string, kind: McpSecretKind, name: string): string {
  return `${MCP_ACCOUNT_PREFIX}${server}:${kind}:${name}`;
}

/** Every keychain account an entry refers to, with the kind and name it fills. */
export function secretRefs(server: string, c: McpServerConfig): Array<{ kind: McpSecretKind; name: string; account: string }> {
  const names =
    'url' in c ? (c.secretHeaders ?? []).map((n) => ['header', n] as const) : (c.secretEnv ?? []).map((n) => ['env', n] as const);
  return names.map(([kind, name]) => ({ kind, name, account: mcpSecretAccount(server, kind, name) }));
}

/** Names that are almost always secrets: an import (and the Settings form) moves their values to the keychain. */
export { mcpNameLooksSecret as looksSecret } from '@contract/mcp-secret-names';
