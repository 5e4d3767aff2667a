import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '@contract';
import { toContent, type McpContent } from './mcp-content';

// Interactive UI in tool results (docs/mcp.md, "Interactive UI"): the two conventions servers use.
// MCP-UI puts a `ui://` resource in the result (embedded, or as a link); the MCP Apps extension names
// a `ui://` resource in the tool's `_meta.ui.resourceUri` for the host to read. Either way, HTML is
// what the app renders, in its isolated output frame; the other MCP-UI kinds are refused with a note.

/** A resource the server sent or we read: its URI, type and body (text, or base64 bytes). */
export interface UiResourceBody {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

const UI_SCHEME = 'ui://';
/** The longest URI shown in a note or given to the model: a URI is the server's text. */
const MAX_URI_CHARS = 300;

export function isUiUri(uri: unknown): uri is string {
  return typeof uri === 'string' && uri.startsWith(UI_SCHEME);
}

/** A URI as the cell and the model see it: cut, and without control characters. */
export function shownUri(uri: string): string {
  const clean = [...uri].map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch)).join('');
  return clean.length > MAX_URI_CHARS ? `${clean.slice(0, MAX_URI_CHARS)}…` : clean;
}

/**
 * A `ui://` resource as content: HTML (`text/html`, MCP Apps' `text/html;profile=mcp-app`, or a
 * `ui://` resource with no type) becomes a UI part; an external page (`text/uri-list`) or Remote DOM
 * (`application/vnd.mcp-ui.remote-dom…`) is refused with a note saying why; null for anything else,
 * which is shown as an ordinary resource.
 */
export function uiContentOf(r: UiResourceBody): McpContent | null {
  if (!isUiUri(r.uri)) return null;
  const mime = (r.mimeType ?? '').toLowerCase().trim();
  const uri = shownUri(r.uri);
  if (mime === 'text/uri-list') {
    const first = bodyText(r)
      ?.split(/\r?\n/)
      .find((line) => line.trim() && !line.startsWith('#'));
    return {
      type: 'other',
      text: `[UI resource ${uri} is an external page${first ? ` (${shownUri(first.trim())})` : ''}: not shown, the app loads no remote pages into conversations]`,
    };
  }
  if (mime.startsWith('application/vnd.mcp-ui.remote-dom'))
    return {
      type: 'other',
      text: `[UI resource ${uri} is Remote DOM (${shownUri(mime)}): not shown, the app renders only HTML UI resources]`,
    };
  if (mime !== '' && !mime.startsWith('text/html')) return null;
  const html = bodyText(r);
  if (html === null) return { type: 'other', text: `[UI resource ${uri} has no content]` };
  return { type: 'ui', uri: r.uri, mimeType: r.mimeType ?? 'text/html', html };
}

function embeddedUi(resource: object): McpContent | null {
  const r = resource as Record<string, unknown>;
  if (!isUiUri(r.uri)) return null;
  return uiContentOf({
    uri: r.uri,
    ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}),
    ...(typeof r.text === 'string' ? { text: r.text } : {}),
    ...(typeof r.blob === 'string' ? { blob: r.blob } : {}),
  });
}

function bodyText(r: UiResourceBody): string | null {
  if (typeof r.text === 'string') return r.text;
  if (typeof r.blob === 'string') return Buffer.from(r.blob, 'base64').toString('utf8');
  return null;
}

/** The `ui://` resource a tool (or a result) names in its `_meta`: MCP Apps' `ui.resourceUri`, or the older flat `ui/resourceUri` key. */
export function uiResourceUriOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const m = meta as Record<string, unknown>;
  const nested = typeof m.ui === 'object' && m.ui !== null ? (m.ui as Record<string, unknown>).resourceUri : undefined;
  const uri = nested ?? m['ui/resourceUri'];
  return isUiUri(uri) ? uri : undefined;
}

/**
 * Reads a `ui://` resource from its server (a link in a result, or the one a tool names) and gives it
 * as content; a failed read is a note in the result, not a failed call.
 */
export async function readUiResource(client: Client, uri: string, timeoutMs: number, signal: AbortSignal): Promise<McpContent> {
  try {
    const result = await client.readResource({ uri }, { timeout: timeoutMs, signal });
    const part = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
    const content = part ? uiContentOf({ ...part, uri }) : null;
    return content ?? { type: 'other', text: `[UI resource ${shownUri(uri)} is not HTML: not shown]` };
  } catch (err) {
    if (signal.aborted) throw err;
    return { type: 'other', text: `[UI resource ${shownUri(uri)} could not be read: ${errorMessage(err)}]` };
  }
}

/**
 * A result's parts as content: every embedded `ui://` resource as its UI (or the note refusing it),
 * every `ui://` link read into its UI, and the UI the tool (or result) names added when the result
 * does not already carry it.
 */
export async function resultContent(
  client: Client,
  parts: Array<Record<string, unknown>>,
  named: string | undefined,
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<McpContent[]> {
  const content: McpContent[] = [];
  const shown = new Set<string>();
  for (const part of parts) {
    const embedded =
      part.type === 'resource' && typeof part.resource === 'object' && part.resource !== null ? embeddedUi(part.resource) : null;
    if (embedded) {
      content.push(embedded);
      shown.add(String((part.resource as UiResourceBody).uri));
    } else if (part.type === 'resource_link' && isUiUri(part.uri)) {
      content.push(await readUiResource(client, part.uri, opts.timeoutMs, opts.signal));
      shown.add(part.uri);
    } else content.push(toContent(part));
  }
  if (named && !shown.has(named)) content.push(await readUiResource(client, named, opts.timeoutMs, opts.signal));
  return content;
}
