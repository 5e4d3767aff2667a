import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, outputFrameContentSecurityPolicy } from '../../src-main/core/security/content-security-policy';
import { MAX_OUTPUT_FRAME_HEIGHT } from '../../src-renderer/features/cells/output-frame-messages';
import { expectAttribute, expectText } from '../support/page-expect';
import { notebookJson } from '../support/notebook-json';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, workspaceAfterHello, shot } from '../support/ui-harness';
import { upgradeStatus } from '../support/ws-upgrade';

// Rich HTML outputs whose scripts must run (plotly, bokeh, vega…) render in output-frame.html, loaded by
// URL with its own CSP in an opaque origin. These drive the real app in Chromium: a Python cell's
// output runs its script, and from inside the frame the app's DOM, cookies and bridge are out of reach.

/** What the output's script tries; each result lands in a div the test reads through the frame. */
function probeHtml(bridgeUrl: string): string {
  return `
<div id="result">script did not run</div>
<div id="parent-access">not tried</div>
<div id="cookie">not tried</div>
<div id="storage">not tried</div>
<div id="bridge">not tried</div>
<div id="tall" style="height: 600px; background: #def">a tall block</div>
<script>
  const put = (id, text) => { document.getElementById(id).textContent = text; };
  put('result', 'computed by the script: ' + [1, 2, 3].map((x) => x * 14).join(','));
  try { put('parent-access', 'read the app title: ' + parent.document.title); } catch (e) { put('parent-access', 'blocked: ' + e.name); }
  try { put('cookie', 'cookie=[' + document.cookie + ']'); } catch (e) { put('cookie', 'blocked: ' + e.name); }
  try { put('storage', 'storage keys: ' + Object.keys(localStorage).join(',')); } catch (e) { put('storage', 'blocked: ' + e.name); }
  let violated = 'none';
  document.addEventListener('securitypolicyviolation', (e) => { violated = e.effectiveDirective; });
  try {
    const ws = new WebSocket(${JSON.stringify(bridgeUrl)});
    ws.onopen = () => put('bridge', 'connected');
    // Chromium fails a socket its policy forbids with an error event (no close event).
    ws.onerror = () => setTimeout(() => put('bridge', 'failed, violated: ' + violated));
  } catch (e) { put('bridge', 'threw: ' + e.name); }
</script>`;
}

const tallHtml = `<div id="huge" style="height: 3000px; background: linear-gradient(#fff, #9cf)">taller than the cap</div>`;

/** Python source for one display(HTML(...)) per document (the runner's own display helper). */
const displayCode = (...docs: string[]) => docs.map((d) => `display(HTML(${JSON.stringify(d)}))`).join('\n');

describe('HTML outputs with scripts, in an isolated frame', () => {
  // The tests share one app and page, each in a new conversation of its own (ui-fixture.ts's 'shared': a
  // test that leaves anything changed hands the next a fresh app), so each proves what it did alone.
  const ui = useUiApp(
    { settings: { autoRun: true, exec: { pythonPath: '/usr/bin/python3' } } },
    { newConversation: true, start: 'shared' },
  );

  const frames = () => ui.page.getByTestId('html-output');

  it("runs the output's script; the frame cannot read the app, its cookies or its bridge; it grows to its content, up to a cap", async () => {
    const bridgeUrl = `${ui.aut.server.url.replace(/^http/, 'ws')}/ws?token=${ui.aut.server.token}`;
    // A cookie the app page can read, so "the frame cannot" means something (the token cookie is HttpOnly).
    await ui.page.context().addCookies([{ name: 'oi_probe', value: 'visible-to-the-app', url: ui.aut.server.url }]);
    expect(await ui.page.evaluate(() => document.cookie)).toContain('oi_probe=visible-to-the-app');
    const framePage = ui.page.waitForResponse((r) => new URL(r.url()).pathname === '/output-frame.html');

    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'call_html', name: 'execute', arguments: { language: 'python', code: displayCode(probeHtml(bridgeUrl), tallHtml) } }],
      },
      { kind: 'text', text: 'Shown.' },
    );
    await sendMessage(ui.page, 'Show an interactive output');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Shown.', 60_000);
    await expectAttribute(ui.page.getByTestId('cell').last(), 'data-status', 'done');
    await expect.poll(() => frames().count()).toBe(2);
    expect(await frames().first().getAttribute('sandbox')).toBe('allow-scripts');

    const probe = frames().first().contentFrame();
    await expectText(probe.locator('#result'), 'computed by the script: 14,28,42');
    await expectText(probe.locator('#parent-access'), 'blocked: SecurityError');
    // An opaque origin has no cookies or storage to read: Chromium throws rather than answering empty.
    await expectText(probe.locator('#cookie'), /^blocked: SecurityError$/);
    await expectText(probe.locator('#storage'), /^blocked: SecurityError$/);
    // The frame's own policy stops the socket before it leaves the browser (connect-src 'none')…
    await expectText(probe.locator('#bridge'), 'failed, violated: connect-src');
    // …and the server refuses an opaque origin ("null") even with the right token.
    expect(await upgradeStatus(bridgeUrl, { origin: 'null' })).toBe(403);
    expect(await upgradeStatus(bridgeUrl, { origin: ui.aut.server.url })).toBe(101);
    await expect(ui.page.getByText('Scripts in this output run in an isolated frame').count()).resolves.toBe(1);

    // The frame shows all its content without scrolling…
    const probeView = () =>
      probe
        .locator('html')
        .evaluate((el) => ({ content: Math.ceil(el.getBoundingClientRect().height), view: el.clientHeight, scroll: el.scrollHeight }));
    await expect.poll(async () => (await probeView()).view).toBeGreaterThan(600);
    const fitted = await probeView();
    expect(fitted.view).toBe(fitted.content);
    expect(fitted.scroll).toBe(fitted.view);
    // …up to the cap, past which it scrolls inside.
    const tall = frames().nth(1).contentFrame();
    await expectText(tall.locator('#huge'), 'taller than the cap');
    const tallView = () => tall.locator('html').evaluate((el) => ({ view: el.clientHeight, scroll: el.scrollHeight }));
    await expect.poll(async () => (await tallView()).view).toBe(MAX_OUTPUT_FRAME_HEIGHT);
    expect((await tallView()).scroll).toBeGreaterThan(3000);

    // The frame page was served with its own policy; the app page keeps the app's.
    expect(await (await framePage).headerValue('content-security-policy')).toBe(outputFrameContentSecurityPolicy());
    const index = await ui.page.request.get(ui.aut.server.url + '/');
    expect(index.headers()['content-security-policy']).toBe(contentSecurityPolicy([ui.aut.server.url.replace(/^http/, 'ws')]));
    await frames()
      .first()
      .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(ui.page, 'ui-html-output.png');
  });

  it('opens a clicked http(s) link outside the frame, and nothing the content asks for without a click', async () => {
    const linkHtml = '<a id="docs" href="https://docs.example.invalid/chart" target="_blank">chart docs</a>';
    const pushyHtml =
      '<p id="pushy">pushy</p><script>parent.postMessage({ type: "oi-output-link", url: "https://ads.example.invalid/" }, "*")</script>';
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'call_links', name: 'execute', arguments: { language: 'python', code: displayCode(pushyHtml, linkHtml) } }],
      },
      { kind: 'text', text: 'Linked.' },
    );
    await sendMessage(ui.page, 'Show a link');
    await expectText(ui.page.getByTestId('assistant-message').last(), 'Linked.', 60_000);
    await expect.poll(() => frames().count()).toBe(2);
    await expectText(frames().first().contentFrame().locator('#pushy'), 'pushy');
    const link = frames().nth(1).contentFrame().locator('#docs');
    await expectText(link, 'chart docs');

    // No network here: the browser answers for the two sites, and keeps a list of what was asked.
    const asked: string[] = [];
    await ui.page.context().route(/example\.invalid/, async (route) => {
      asked.push(route.request().url());
      await route.fulfill({ contentType: 'text/html', body: '<p>elsewhere</p>' });
    });
    const popup = ui.page.context().waitForEvent('page');
    await link.click();
    const opened = await popup;
    await opened.waitForLoadState();
    expect(opened.url()).toBe('https://docs.example.invalid/chart');
    // Opened without a way back to the app (noopener).
    expect(await opened.evaluate(() => window.opener === null)).toBe(true);
    // The message the content posted on its own, without a click, opened nothing.
    expect(asked).toEqual(['https://docs.example.invalid/chart']);
    expect(
      ui.page
        .context()
        .pages()
        .map((p) => p.url()),
    ).not.toContain('https://ads.example.invalid/');
    await opened.close();
  });

  it('refuses a socket from a real opaque-origin page with the token, on the server side (Origin check)', async () => {
    const bridgeUrl = `${ui.aut.server.url.replace(/^http/, 'ws')}/ws?token=${ui.aut.server.token}`;
    // An opaque origin like the frame's, but without its connect-src, so the socket does reach our server.
    // (A data: page would not do: Chromium's local network access checks stop it first.)
    const sandboxed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': 'sandbox allow-scripts' });
      res.end('<title>opaque</title>');
    });
    await new Promise<void>((resolve) => sandboxed.listen(0, '127.0.0.1', resolve));
    const other = await ui.browser.newPage();
    try {
      const errors: string[] = [];
      other.on('websocket', (ws) => ws.on('socketerror', (e) => errors.push(e)));
      await other.goto(`http://127.0.0.1:${(sandboxed.address() as AddressInfo).port}/`);
      expect(await other.evaluate(() => self.origin)).toBe('null');
      const outcome = await other.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('connected');
            ws.onclose = (e) => resolve(`closed ${e.code}`);
          }),
        bridgeUrl,
      );
      expect(outcome).toBe('closed 1006');
      await expect.poll(() => errors.join('\n')).toMatch(/Unexpected response code: 403/);
    } finally {
      await other.close();
      await new Promise((resolve) => sandboxed.close(resolve));
    }
  });

  it('previews a notebook file through the same frame, with its scripts off like an untrusted notebook', async () => {
    const workspace = await workspaceAfterHello(ui);
    const html =
      '<p id="nb">static</p><p id="after">after the script</p><script>document.getElementById("nb").textContent = "notebook script ran";</script>';
    const notebook = notebookJson([
      {
        cell_type: 'code',
        execution_count: 1,
        source: ['chart()'],
        outputs: [{ output_type: 'display_data', metadata: {}, data: { 'text/html': [html] } }],
      },
    ]);
    writeFileSync(path.join(workspace, 'chart.ipynb'), notebook);
    const row = ui.page.locator('[role="treeitem"][data-path="chart.ipynb"]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await row.getByRole('button', { name: 'chart.ipynb' }).click();
    const preview = ui.page.getByTestId('notebook-preview');
    await expectText(preview, 'In [1]:');
    const frame = preview.getByTestId('html-output');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const content = frame.contentFrame();
    // The content after the script was written (so the script was reached) and the script did not run.
    await expectText(content.locator('#after'), 'after the script');
    expect(await content.locator('#nb').textContent()).toBe('static');
    await expectText(preview, 'Scripts in a previewed notebook do not run');
  });
});
