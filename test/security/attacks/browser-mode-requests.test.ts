import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../../support/ui-fixture';
import { startCookieAttacker } from './support/cookie-attacker';
import { rawRequest, statusOf, WS_HEADERS } from './support/raw-http';
import { startServeChild, type ServeChild } from './support/serve-child';
import { startUnguardedServer } from './support/unguarded-server';
import { upgradeStatus } from '../../support/ws-upgrade';

// Issue 17, finding 3: no request of any shape may end browser mode, and cookies planted by a page on
// another 127.0.0.1 port may neither crash it nor lock the user out. The server under attack is the
// built `npm run serve` in a process of its own, so a crash is that process exiting.

describe('attack: malformed requests over raw TCP', () => {
  let app: ServeChild;
  beforeAll(async () => {
    app = await startServeChild();
  });
  afterAll(async () => app?.close());

  it('answers every malformed request line, header and cookie, and is still serving afterwards', async () => {
    const host = `Host: 127.0.0.1:${app.port}\r\n`;
    const ours = `Cookie: oi_token_${app.port}=${app.token}\r\n`;
    // Plain requests ask the server to close after answering, so the reply ends without waiting.
    const plain = `${host}Connection: close\r\n`;
    const attacks: Array<{ name: string; bytes: string | Buffer; status: number | null; reset?: boolean }> = [
      // `//[` is read as a path of ours (not a host), so it is simply not /ws, nor a file.
      { name: 'upgrade to //[ (the repro)', bytes: `GET //[ HTTP/1.1\r\n${host}${WS_HEADERS}\r\n`, status: 404 },
      { name: 'page at //[', bytes: `GET //[ HTTP/1.1\r\n${plain}\r\n`, status: 401 },
      { name: 'page at //[ with the token', bytes: `GET //[?token=${app.token} HTTP/1.1\r\n${plain}\r\n`, status: 404 },
      {
        name: 'upgrade to //[ with the token',
        bytes: `GET //[?token=${app.token} HTTP/1.1\r\n${host}${ours}${WS_HEADERS}\r\n`,
        status: 404,
      },
      { name: 'upgrade to //evil/ws', bytes: `GET //evil.example/ws HTTP/1.1\r\n${host}${ours}${WS_HEADERS}\r\n`, status: 404 },
      {
        name: 'old cookie name, bad encoding (the repro)',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: oi_token=%E0%A4%A\r\n${WS_HEADERS}\r\n`,
        status: 401,
      },
      {
        name: 'our cookie name, bad encoding',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: oi_token_${app.port}=%E0%A4%A\r\n${WS_HEADERS}\r\n`,
        status: 401,
      },
      {
        name: 'page, bad cookie encoding',
        bytes: `GET / HTTP/1.1\r\n${plain}Cookie: oi_token_${app.port}=%E0%A4%A; oi_token=%\r\n\r\n`,
        status: 401,
      },
      {
        name: 'cookie fragments',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: =; ;;; =x; oi_token_${app.port}; oi_token_${app.port}=; %=%\r\n${WS_HEADERS}\r\n`,
        status: 401,
      },
      { name: 'token query, bad encoding', bytes: `GET /ws?token=%E0%A4%A&token HTTP/1.1\r\n${host}${WS_HEADERS}\r\n`, status: 401 },
      { name: 'asterisk target', bytes: `GET * HTTP/1.1\r\n${host}${WS_HEADERS}\r\n`, status: 400 },
      {
        name: 'absolute-form target',
        bytes: `GET http://127.0.0.1:${app.port}/ws HTTP/1.1\r\n${host}${ours}${WS_HEADERS}\r\n`,
        status: 400,
      },
      { name: 'authority-form target', bytes: `CONNECT 127.0.0.1:${app.port} HTTP/1.1\r\n${host}\r\n`, status: null },
      { name: 'no Host', bytes: `GET /ws HTTP/1.1\r\n${ours}${WS_HEADERS}\r\n`, status: 421 },
      { name: 'Origin null', bytes: `GET /ws HTTP/1.1\r\n${host}${ours}Origin: null\r\n${WS_HEADERS}\r\n`, status: 403 },
      {
        name: 'bad WebSocket version, authorized',
        bytes: `GET /ws HTTP/1.1\r\n${host}${ours}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 99\r\n\r\n`,
        status: 400,
      },
      { name: 'POST upgrade, authorized', bytes: `POST /ws HTTP/1.1\r\n${host}${ours}${WS_HEADERS}Content-Length: 0\r\n\r\n`, status: 405 },
      { name: 'files route, bad encoding', bytes: `GET /files/%E0%A4%A/%ZZ HTTP/1.1\r\n${plain}${ours}\r\n`, status: 400 },
      { name: 'files route, upgrade', bytes: `GET /files/x/y HTTP/1.1\r\n${host}${ours}${WS_HEADERS}\r\n`, status: 404 },
      { name: 'renderer file, bad encoding', bytes: `GET /%E0%A4%A HTTP/1.1\r\n${plain}${ours}\r\n`, status: 404 },
      { name: 'binary junk', bytes: Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]), status: 400 },
      { name: 'control character in a header', bytes: `GET /ws HTTP/1.1\r\n${host}X-A: a\x7fb\x00\r\n${WS_HEADERS}\r\n`, status: 400 },
      {
        name: 'header over the size limit',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: ${'oi_token=%E0%A4%A; '.repeat(6000)}\r\n${WS_HEADERS}\r\n`,
        status: 431,
      },
      {
        name: 'thousands of junk copies of our cookie',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: ${`oi_token_${app.port}=%E0%A4%A; `.repeat(300)}\r\n${WS_HEADERS}\r\n`,
        status: 401,
      },
      { name: 'upgrade, client resets at once', bytes: `GET //[ HTTP/1.1\r\n${host}${WS_HEADERS}\r\n`, status: null, reset: true },
      {
        name: 'authorized upgrade, client resets at once',
        bytes: `GET /ws HTTP/1.1\r\n${host}${ours}${WS_HEADERS}\r\n`,
        status: null,
        reset: true,
      },
      {
        name: 'refused upgrade, client resets at once',
        bytes: `GET /ws HTTP/1.1\r\n${host}Cookie: oi_token=%E0%A4%A\r\n${WS_HEADERS}\r\n`,
        status: null,
        reset: true,
      },
      { name: 'half a request', bytes: `GET /ws HTTP/1.1\r\n${plain}Cookie: oi_tok`, status: null, reset: true },
    ];
    for (const attack of attacks) {
      for (let i = 0; i < (attack.reset ? 20 : 1); i++) {
        const reply = await rawRequest(app.port, attack.bytes, { resetAfterSend: attack.reset });
        if (attack.status !== null) expect(statusOf(reply), `${attack.name}: ${reply.slice(0, 200)}`).toBe(attack.status);
      }
      expect(app.exited(), `after "${attack.name}": ${app.output()}`).toBeNull();
    }
    // Still fully serving: the page with the token, and a WebSocket whose cookie header also carries
    // junk duplicates of our cookie ahead of the real one.
    expect((await fetch(app.launchUrl)).status).toBe(200);
    const junkFirst = `oi_token=%E0%A4%A; oi_token_${app.port}=%E0%A4%A; oi_token_${app.port}=not-it; oi_token_${app.port}=${app.token}`;
    expect(await upgradeStatus(`ws://127.0.0.1:${app.port}/ws`, { cookie: junkFirst })).toBe(101);
    expect(await upgradeStatus(`ws://127.0.0.1:${app.port}/ws`, { cookie: `oi_token=${app.token}` })).toBe(401);
    expect(app.exited()).toBeNull();
  });

  it('twin: the same bytes end a server whose upgrade handler is written the old way', async () => {
    for (const bytes of [
      `GET //[ HTTP/1.1\r\nHost: x\r\n${WS_HEADERS}\r\n`,
      `GET /ws HTTP/1.1\r\nHost: x\r\nCookie: oi_token=%E0%A4%A\r\n${WS_HEADERS}\r\n`,
    ]) {
      const twin = await startUnguardedServer();
      try {
        await rawRequest(twin.port, bytes);
        expect(await twin.untilExit()).toBe('exit 1');
        expect(twin.output()).toMatch(/TypeError: Invalid URL|URIError: URI malformed/);
      } finally {
        await twin.close();
      }
    }
  });
});

describe('attack: cookies planted from another 127.0.0.1 port, in Chromium', () => {
  const chromium = useChromium();
  let app: ServeChild;
  let attacker: Awaited<ReturnType<typeof startCookieAttacker>>;
  let context: BrowserContext | null = null;
  beforeAll(async () => {
    app = await startServeChild();
    attacker = await startCookieAttacker();
  });
  afterEach(async () => {
    await context?.close();
    context = null;
  });
  afterAll(async () => {
    await attacker?.close();
    await app?.close();
  });

  /** Opens the app page and resolves once a request over its WebSocket has been answered. */
  async function appConnects(page: Page, url: string): Promise<void> {
    let answered = false;
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (typeof f.payload === 'string' && f.payload.includes('"type":"response"') && f.payload.includes('"ok":true')) answered = true;
      }),
    );
    const reply = await page.goto(url);
    expect(reply?.status()).toBe(200);
    await expect.poll(() => answered, { message: `the app page at ${url} never got an answer over its WebSocket` }).toBe(true);
  }

  async function plant(page: Page): Promise<void> {
    await page.goto(attacker.url(app.port));
    await expect.poll(() => page.title()).toBe('planted');
  }

  it('the app page keeps connecting (reload, new tab) after a foreign page planted cookies, and the server lives', async () => {
    context = await chromium.browser.newContext();
    const page = await context.newPage();
    await appConnects(page, app.launchUrl);
    const other = await context.newPage();
    await plant(other);
    // The attack landed: the jar holds the planted cookies for the app's /ws.
    const forWs = await context.cookies(`http://127.0.0.1:${app.port}/ws`);
    expect(forWs.filter((c) => c.name === `oi_token_${app.port}`).length).toBeGreaterThan(1);
    expect(forWs.some((c) => c.name === 'oi_token' && c.value === '%E0%A4%A')).toBe(true);

    await appConnects(page, `${app.origin}/`); // the reconnect that used to kill the server
    await appConnects(await context.newPage(), `${app.origin}/`);
    expect(app.exited(), app.output()).toBeNull();
  });

  it('planting first, then opening the launch URL, works too', async () => {
    context = await chromium.browser.newContext();
    await plant(await context.newPage());
    const page = await context.newPage();
    await appConnects(page, app.launchUrl);
    await appConnects(page, `${app.origin}/`);
    expect(app.exited(), app.output()).toBeNull();
  });

  it('twin: the planted cookies reach another port first in line, and end a server that reads them the old way', async () => {
    const twin = await startUnguardedServer();
    try {
      context = await chromium.browser.newContext();
      const page = await context.newPage();
      await appConnects(page, app.launchUrl);
      await plant(await context.newPage());
      // A page of the twin's origin opens its WebSocket: Chromium sends every 127.0.0.1 cookie for /ws.
      await page.goto(twin.origin);
      // (A string, so vitest's transform does not rewrite `WebSocket` into the imported ws module.)
      await page.evaluate(`void new WebSocket('ws://127.0.0.1:${twin.port}/ws')`);
      expect(await twin.untilExit()).toBe('exit 1');
      const header = /cookie: (.*)/.exec(twin.output())?.[1] ?? '';
      expect(header).toContain('oi_token=%E0%A4%A');
      // Junk under the app's own cookie name comes before the real token (longer path first): a
      // first-match lookup would have answered the app's reconnect with 401.
      const junk = header.indexOf(`oi_token_${app.port}=not-the-token`);
      expect(junk).toBeGreaterThanOrEqual(0);
      expect(header.indexOf(`oi_token_${app.port}=${app.token}`)).toBeGreaterThan(junk);
      expect(twin.output()).toMatch(/URIError: URI malformed/);
    } finally {
      await twin.close();
    }
  });
});
