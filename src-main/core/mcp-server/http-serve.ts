import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '@contract';
import { checkRequest } from './bearer-check';
import { buildMcpServer, type McpServeDeps, type ServedClient } from './build-server';

// `oi mcp --http <port>`: the Streamable HTTP transport of the SDK, on 127.0.0.1 only, behind a bearer
// token. Each client that initializes gets a session id and its own ServedClient (its own language
// sessions), ended when it sends DELETE, when the server stops, or when it has been idle for
// `idleTimeoutMs`: a client that went away without DELETE (killed, crashed, closed its laptop) would
// otherwise keep its language sessions, Python kernels and their memory, until the server stops.
// Idle means no request in flight and no open stream (a connected SDK client keeps its GET stream
// open, a long `execute` keeps its POST open), for that long since the last one ended.

/** Largest request body read (execute's code and write_file's content travel in it). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
export const MCP_PATH = '/mcp';

export interface HttpServe {
  port: number;
  close(): Promise<void>;
}

interface Client {
  transport: StreamableHTTPServerTransport;
  served: ServedClient;
  /** Requests of this session still open (a GET stream counts while it lasts). */
  open: number;
  /** When the last of them ended (or the session began). */
  lastSeen: number;
}

export interface HttpServeOptions {
  port: number;
  token: string;
  /** An MCP session idle this long is ended with its language sessions; 0: never. */
  idleTimeoutMs: number;
  /** A session was ended for being idle (the client's name, as it gave it). */
  onIdleEnd?: (clientName: string) => void;
}

export async function serveHttp(deps: McpServeDeps, opts: HttpServeOptions): Promise<HttpServe> {
  const clients = new Map<string, Client>();
  let port = opts.port;

  const sweep = () => {
    const now = Date.now();
    for (const [id, client] of clients) {
      if (client.open > 0 || now - client.lastSeen < opts.idleTimeoutMs) continue;
      clients.delete(id);
      opts.onIdleEnd?.(client.served.session.clientName);
      // The transport's onclose (below) closes its language sessions.
      void client.transport.close().catch(() => undefined);
    }
  };
  // Checked a few times per timeout (at most every 30 s), so a session ends at most a quarter late.
  const sweeper = opts.idleTimeoutMs > 0 ? setInterval(sweep, Math.min(Math.max(opts.idleTimeoutMs / 4, 100), 30_000)) : null;
  sweeper?.unref();
  /** Counts the request as open on its session until its response is done or its connection drops. */
  const track = (client: Client, res: ServerResponse) => {
    client.open++;
    res.once('close', () => {
      client.open--;
      client.lastSeen = Date.now();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = checkRequest(req, opts.token, port);
    if (refused) return reply(res, refused.status, refused.message, refused.status === 401);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_PATH) return reply(res, 404, `the MCP endpoint is ${MCP_PATH}`);
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (typeof sessionId === 'string') {
      const client = clients.get(sessionId);
      if (!client) return reply(res, 404, 'no such MCP session (it ended, or the server restarted); initialize again');
      track(client, res);
      return client.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return reply(res, 400, 'start with an initialize request (no Mcp-Session-Id yet)');
    const served = buildMcpServer(deps);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void clients.set(id, { transport, served, open: 0, lastSeen: Date.now() }),
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && clients.get(id)?.transport === transport) clients.delete(id);
      void served.session.close().catch(() => undefined);
    };
    await served.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, err instanceof BodyError ? err.status : 500, errorMessage(err));
      else res.end();
    });
  });
  await listen(server, opts.port);
  port = (server.address() as AddressInfo).port;
  return {
    port,
    async close() {
      if (sweeper) clearInterval(sweeper);
      for (const { transport, served } of clients.values()) {
        await transport.close().catch(() => undefined);
        await served.session.close().catch(() => undefined);
      }
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the token keeps out other local programs, the address everything else.
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function reply(res: ServerResponse, status: number, message: string, askForToken = false): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(askForToken ? { 'www-authenticate': 'Bearer realm="oi mcp"' } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, `the request is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new BodyError(400, 'the request body is not JSON');
  }
}
