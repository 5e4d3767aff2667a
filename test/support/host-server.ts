import { createServer } from 'node:http';

/**
 * 127.0.0.2: an address of this machine outside the sandbox's NO_PROXY (which keeps localhost and
 * 127.0.0.1 for servers code starts inside the sandbox), so sandboxed clients reach it only through
 * the app's proxy (docs/sandbox.md, "Network").
 */
export const PROXIED_HOST = '127.0.0.2';

export interface HostServer {
  port: number;
  /** Requests answered so far: what reached the host. */
  served(): number;
  close(): Promise<void>;
}

/** A plain HTTP server on PROXIED_HOST answering every request with one line, counting them. */
export async function startHostServer(): Promise<HostServer> {
  let served = 0;
  const server = createServer((_req, res) => {
    served++;
    res.end('hello from the host\n');
  });
  await new Promise<void>((r) => server.listen(0, PROXIED_HOST, r));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    served: () => served,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
