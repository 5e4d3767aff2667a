// The twin of the browser-mode request attacks: an upgrade handler written the way browser mode's was
// before issue 17 (the request target resolved with `new URL(req.url, origin)`, the first `oi_token…`
// cookie percent-decoded, neither guarded). It prints every Cookie header it receives, so a test can
// also see what a browser sends to a 127.0.0.1 port after a page on another port set cookies.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>unguarded</title>');
});
let origin = '';
server.on('upgrade', (req, socket) => {
  console.log(`cookie: ${req.headers.cookie ?? ''}`);
  const url = new URL(req.url ?? '/', origin);
  let token = null;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim().startsWith('oi_token')) {
      token = decodeURIComponent(part.slice(eq + 1).trim());
      break;
    }
  }
  console.log(`first token cookie: ${token}`);
  socket.end(`HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n${url.pathname}\n`);
});
server.listen(0, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening ${origin}`);
});
