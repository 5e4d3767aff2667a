import { describe, expect, it } from 'vitest';
import { useUiApp } from '../../support/ui-fixture';

// Issue 17, finding 8 (the browser-mode part): the launch URL's `?token=` must not stay in the address
// bar, the history entry or a copied link once the cookie has taken over; it must stay when the cookie
// did not take, or a reload would lock the user out.

describe('attack: reading the token from the page URL, in Chromium', () => {
  const ui = useUiApp({}, { start: 'each', openPage: false });

  it('the page drops ?token= from its URL once its WebSocket is open, and a reload still works', async () => {
    const page = await ui.browser.newPage();
    try {
      await page.goto(ui.aut.server.launchUrl);
      await expect.poll(() => page.url()).toBe(`${ui.aut.server.url}/`);
      expect(await page.evaluate('location.href + " " + document.URL')).not.toContain(ui.aut.server.token);
      // Replaced, not pushed: going back leads to the blank page the tab started on, not to the token.
      await page.goBack();
      expect(page.url()).toBe('about:blank');
      await page.goForward();
      await page.waitForSelector('[data-testid="model-button"]');
      expect(page.url()).not.toContain('token=');
      await page.reload();
      await page.waitForSelector('[data-testid="model-button"]');
      expect(page.url()).not.toContain('token=');
    } finally {
      await page.close();
    }
  });

  it('keeps ?token= while the cookie does not work (the WebSocket is refused), so a reload still can', async () => {
    const page = await ui.browser.newPage();
    try {
      // The page's response arrives without its Set-Cookie: the WebSocket gets 401.
      await page.route(
        (url) => url.searchParams.has('token'),
        async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['set-cookie'];
          await route.fulfill({ response, headers });
        },
      );
      const refused = new Promise<void>((resolve) =>
        page.on('websocket', (ws) => {
          ws.on('socketerror', () => resolve());
          ws.on('close', () => resolve());
        }),
      );
      await page.goto(ui.aut.server.launchUrl);
      await refused;
      expect(page.url()).toBe(ui.aut.server.launchUrl);
    } finally {
      await page.close();
    }
  });

  it('twin: without the page script the token stays in the address bar', async () => {
    const context = await ui.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(ui.aut.server.launchUrl);
      expect(page.url()).toBe(ui.aut.server.launchUrl);
      expect(page.url()).toContain(ui.aut.server.token);
    } finally {
      await context.close();
    }
  });
});
