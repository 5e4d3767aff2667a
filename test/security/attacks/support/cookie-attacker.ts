import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A web page on another 127.0.0.1 port, as any local dev server or a page it serves could be: it plants
 * cookies for 127.0.0.1 (browsers do not scope cookies by port) aimed at browser mode on `victimPort`:
 * duplicates of its token cookie on path /ws ahead of the real one, values that are not valid
 * percent-encoding, the old fixed name; some from script, some from its response headers. (A server on
 * another port could also REPLACE the path=/ cookie with a header: docs/security.md says what that does.)
 */
export async function startCookieAttacker(): Promise<{ url(victimPort: number): string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const port = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('port'));
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': [`oi_token=%E0%A4%A; Path=/ws`, `oi_token_${port}=from-a-header; Path=/ws`],
    });
    res.end(`<!doctype html><title>elsewhere</title><script>
      const port = ${JSON.stringify(port)};
      for (const c of [
        'oi_token=%E0%A4%A; path=/ws',
        'oi_token=%E0%A4%A',
        'oi_token_' + port + '=%E0%A4%A; path=/ws',
        'oi_token_' + port + '=not-the-token; path=/ws',
        'oi_token_' + port + '=also-not-the-token',
        '%E0%A4%A=%E0%A4%A; path=/ws',
        '=%; path=/ws',
      ]) document.cookie = c;
      document.title = 'planted';
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (victimPort) => `http://127.0.0.1:${port}/?port=${victimPort}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
