import { errorMessage } from '@contract';
import type { McpManager } from './mcp-manager';

// What servers offer besides tools: resources the user can attach to a message, and prompts the
// composer offers as slash commands. Read through each server's SDK client, only when asked.

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  mimeType: string | null;
  description: string;
}

export interface McpPromptInfo {
  server: string;
  name: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

export interface McpCatalog {
  resources: McpResourceInfo[];
  prompts: McpPromptInfo[];
  /** Servers that could not be asked, with why (the rest are listed). */
  problems: string[];
}

/** At most this many of each per server: a list is for picking from, not a dump. */
const MAX_PER_SERVER = 200;
const LIST_TIMEOUT_MS = 30_000;
/** A resource larger than this is refused: it is attached as a file the model reads with code. */
export const MAX_RESOURCE_BYTES = 20 * 1024 * 1024;

/** The resources and prompts of every enabled server that offers them, starting servers as needed. */
export async function mcpCatalog(mcp: McpManager): Promise<McpCatalog> {
  const out: McpCatalog = { resources: [], prompts: [], problems: [] };
  await Promise.all(
    mcp.enabledServers().map(async (server) => {
      try {
        const client = await mcp.clientOf(server);
        const caps = client.getServerCapabilities() ?? {};
        if (caps.resources) {
          const listed = await client.listResources(undefined, { timeout: LIST_TIMEOUT_MS });
          for (const r of listed.resources.slice(0, MAX_PER_SERVER)) {
            out.resources.push({
              server,
              uri: r.uri,
              name: oneLine(r.name || r.uri, 200),
              mimeType: r.mimeType ?? null,
              description: oneLine(r.description ?? '', 500),
            });
          }
        }
        if (caps.prompts) {
          const listed = await client.listPrompts(undefined, { timeout: LIST_TIMEOUT_MS });
          for (const p of listed.prompts.slice(0, MAX_PER_SERVER)) {
            out.prompts.push({
              server,
              name: p.name,
              description: oneLine(p.description ?? '', 500),
              arguments: (p.arguments ?? []).slice(0, 32).map((a) => ({
                name: a.name,
                description: oneLine(a.description ?? '', 300),
                required: a.required === true,
              })),
            });
          }
        }
      } catch (err) {
        out.problems.push(`${server}: ${errorMessage(err)}`);
      }
    }),
  );
  const byName = <T extends { server: string; name: string }>(a: T, b: T) =>
    a.server.localeCompare(b.server) || a.name.localeCompare(b.name);
  out.resources.sort(byName);
  out.prompts.sort(byName);
  return out;
}

/** One resource's content as bytes with its type (text as UTF-8, blobs decoded), for an attachment. */
export async function readMcpResource(
  mcp: McpManager,
  server: string,
  uri: string,
): Promise<{ bytes: Buffer; mime: string; name: string }> {
  const client = await mcp.clientOf(server);
  const result = await client.readResource({ uri }, { timeout: LIST_TIMEOUT_MS });
  const parts = result.contents;
  if (parts.length === 0) throw new Error(`the MCP server "${server}" returned nothing for ${uri}`);
  const chunks: Buffer[] = [];
  let mime = parts[0]?.mimeType ?? null;
  for (const part of parts) {
    if ('text' in part && typeof part.text === 'string') chunks.push(Buffer.from(part.text, 'utf8'));
    else if ('blob' in part && typeof part.blob === 'string') chunks.push(Buffer.from(part.blob, 'base64'));
    if (part.mimeType !== mime) mime = null;
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length > MAX_RESOURCE_BYTES)
    throw new Error(`the resource ${uri} is ${bytes.length} bytes, over the ${MAX_RESOURCE_BYTES / 1024 / 1024} MB an attachment may be`);
  const last = decodeURIComponent(
    uri
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .at(-1) ?? 'resource',
  );
  return { bytes, mime: mime ?? 'text/plain', name: `${server}-${last}`.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) };
}

/**
 * A prompt's messages as the text of one user message: the prompt's own text, with each embedded
 * resource's text after it. Roles other than the user's are written as labelled quotes.
 */
export async function mcpPromptText(mcp: McpManager, server: string, name: string, args: Record<string, string>): Promise<string> {
  const client = await mcp.clientOf(server);
  const result = await client.getPrompt({ name, arguments: args }, { timeout: LIST_TIMEOUT_MS });
  const parts: string[] = [];
  for (const m of result.messages) {
    const c = m.content;
    const text =
      c.type === 'text'
        ? c.text
        : c.type === 'resource' && 'text' in c.resource && typeof c.resource.text === 'string'
          ? `Resource ${c.resource.uri}:\n${c.resource.text}`
          : c.type === 'resource_link'
            ? `Resource ${c.uri}`
            : `[${c.type} content from the prompt, not shown]`;
    parts.push(m.role === 'user' ? text : `(${m.role}) ${text}`);
  }
  return parts.join('\n\n');
}

function oneLine(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}
