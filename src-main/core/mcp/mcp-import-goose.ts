import { McpImportError } from './mcp-import-error';

// goose keeps its MCP servers as "extensions" in ~/.config/goose/config.yaml: `cmd`, `args` and
// `envs` for a program (type stdio), `uri` (and `headers`) for a server over SSE or Streamable HTTP
// (type sse / streamable_http), `enabled`. Turned here into the common mcpServers entries, which the
// importer then checks like any other file's. goose's own extensions (builtin, platform, frontend,
// inline_python) run inside goose and are not MCP servers another app can start: they are left out.

const GOOSE_OWN = new Set(['builtin', 'platform', 'frontend', 'inline_python']);
const URL_TYPES: Record<string, string> = { sse: 'sse', streamable_http: 'http' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** goose's `extensions` map as common mcpServers entries (goose's own extensions left out). */
export function gooseExtensions(extensions: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, ext] of Object.entries(extensions)) {
    const field = `extensions.${key}`;
    if (!isObject(ext)) throw new McpImportError(`${field}: an extension must be a mapping with "type" and "cmd" or "uri".`);
    const type = ext.type;
    if (typeof type === 'string' && GOOSE_OWN.has(type)) continue;
    const envKeys = ext.env_keys;
    if (Array.isArray(envKeys) && envKeys.length > 0)
      throw new McpImportError(
        `${field}.env_keys: goose keeps the values of ${envKeys.map(String).join(', ')} in its own keyring, which is not read; put them in "envs", or add them as secrets in Settings after importing without them.`,
      );
    const entry: Record<string, unknown> = {};
    if (type === 'stdio') {
      if (ext.cmd === undefined) throw new McpImportError(`${field}: a stdio extension needs "cmd" (the program to start).`);
      entry.command = ext.cmd;
      if (ext.args !== undefined) entry.args = ext.args;
      if (ext.envs !== undefined) entry.env = ext.envs;
      if (ext.cwd !== undefined) entry.cwd = ext.cwd;
    } else if (typeof type === 'string' && URL_TYPES[type]) {
      if (ext.uri === undefined) throw new McpImportError(`${field}: a ${type} extension needs "uri" (the server's address).`);
      entry.url = ext.uri;
      entry.type = URL_TYPES[type];
      if (ext.headers !== undefined) entry.headers = ext.headers;
      if (isObject(ext.envs) && Object.keys(ext.envs).length > 0)
        throw new McpImportError(
          `${field}.envs: a ${type} extension is not a program this app starts, so environment variables do not apply.`,
        );
    } else {
      throw new McpImportError(
        `${field}.type: ${JSON.stringify(type ?? null)} is not an extension type this app can start (stdio, sse, streamable_http).`,
      );
    }
    if (ext.enabled === false) entry.disabled = true;
    else if (ext.enabled !== undefined && ext.enabled !== true) throw new McpImportError(`${field}.enabled: must be true or false.`);
    out[key] = entry;
  }
  return out;
}
