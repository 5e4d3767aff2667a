import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { errorMessage, type McpServerConfig } from '@contract';
import { secretRefs } from './mcp-secrets';

export type McpTransportKind = 'stdio' | 'http' | 'sse';

export interface Connected {
  client: Client;
  transport: McpTransportKind;
}

export interface ConnectOptions {
  name: string;
  config: McpServerConfig;
  /** Reads a keychain account (secret env values, secret headers). */
  secret: (account: string) => Promise<string | null>;
  timeoutMs: number;
  onStderr: (text: string) => void;
  /** Set on the client before it connects, so a crash during the handshake is seen too. */
  onClose: (client: Client) => void;
}

/**
 * Connects one configured server through the SDK's own transports: stdio with only the configured
 * env over the SDK's minimal default (never the app's environment), Streamable HTTP, and for an HTTP
 * server that does not speak it, the older HTTP+SSE transport (or SSE at once with `type: "sse"`).
 */
export async function connectServer(o: ConnectOptions): Promise<Connected> {
  const secrets = await resolveSecrets(o);
  const c = o.config;
  if (!('url' in c)) {
    const transport = new StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      env: { ...getDefaultEnvironment(), ...c.env, ...secrets },
      ...(c.cwd ? { cwd: c.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => o.onStderr(chunk.toString('utf8')));
    return { client: await open(o, transport), transport: 'stdio' };
  }
  const url = new URL(c.url);
  const headers = { ...c.headers, ...secrets };
  if (c.type !== 'sse') {
    try {
      return { client: await open(o, new StreamableHTTPClientTransport(url, { requestInit: { headers } })), transport: 'http' };
    } catch (err) {
      if (c.type === 'http') throw err;
      // The fallback the specification describes for servers that predate Streamable HTTP.
      try {
        return {
          client: await open(
            o,
            new SSEClientTransport(url, { requestInit: { headers }, eventSourceInit: { fetch: withHeaders(headers) } }),
          ),
          transport: 'sse',
        };
      } catch (sseErr) {
        throw new Error(`Streamable HTTP failed (${errorMessage(err)}), and so did the SSE fallback (${errorMessage(sseErr)})`, {
          cause: sseErr,
        });
      }
    }
  }
  return {
    client: await open(o, new SSEClientTransport(url, { requestInit: { headers }, eventSourceInit: { fetch: withHeaders(headers) } })),
    transport: 'sse',
  };
}

async function open(
  o: ConnectOptions,
  transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport,
): Promise<Client> {
  const client = new Client({ name: 'open-interpreter-desktop', version: '1' });
  client.onclose = () => o.onClose(client);
  try {
    await client.connect(transport, { timeout: o.timeoutMs });
    return client;
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
}

/** The SSE stream is a GET the EventSource makes: it needs the headers (Authorization) too. */
function withHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } });
}

async function resolveSecrets(o: ConnectOptions): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const ref of secretRefs(o.name, o.config)) {
    const value = await o.secret(ref.account).catch(() => null);
    if (value === null)
      throw new Error(
        `the keychain holds no value for the secret ${ref.kind === 'env' ? 'env variable' : 'header'} ${ref.name}; set it in Settings → MCP servers`,
      );
    out[ref.name] = value;
  }
  return out;
}
