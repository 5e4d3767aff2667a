import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noisePng } from '../../bench/notebook-fixture';
import { RENDERER_DIR } from '../support/app-under-test';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { currentConversation, sendMessage } from '../support/ui-harness';

// The renderer starts on its first chunk alone; views and heavy libraries (xterm, marked + DOMPurify,
// the highlighter, Settings, API keys, onboarding, notebook previews, the image viewer, the table
// preview, the remote kernel panel) are chunks of their own in out/renderer/assets, fetched the first time they are shown.
// This checks, in Chromium under the app's real CSP (script-src 'self'), that none of them is fetched
// before the window is usable, that each one loads when its view opens, and that no load is refused.

/** The chunks that must wait until their view is shown, by the name Vite gives them. */
const ON_DEMAND = [
  'TerminalView',
  'MarkdownHtml',
  'highlight',
  'SettingsScreen',
  'KeysScreen',
  'NotebookPreview',
  'ImageViewer',
  'TablePreview',
  'RemoteKernelPanel',
];
const chunkName = (file: string) => file.replace(/-[\w-]{8}\.js$/, '');

// CSP refusals reach the page as securitypolicyviolation events, whatever the console says.
// And the moment the page marks itself ready, to tell what it fetched before from what it fetched after.
const PROBE = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
new MutationObserver((_, observer) => {
  if (document.body?.dataset.ready !== 'true') return;
  observer.disconnect();
  performance.mark('oi-ready');
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });`;

describe('the renderer loads its views on demand, under the app’s CSP', () => {
  const ui = useUiApp({ settings: { autoRun: true } }, { start: 'in-test' });

  it('starts on the first chunk alone and loads each view’s chunk when it is shown', async () => {
    const built = readdirSync(path.join(RENDERER_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    for (const name of ON_DEMAND) expect(built.map(chunkName), `out/renderer/assets has no ${name} chunk`).toContain(name);

    await ui.start({ settings: { autoRun: true } });
    await ui.page.close();
    // A page of our own, so the CSP probe runs before the app's scripts and every response is seen.
    const page = await ui.browser.newPage({ viewport: { width: 1400, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const fetched = new Map<string, number>();
    page.on('response', (r) => {
      const file = new URL(r.url()).pathname.split('/').pop() ?? '';
      if (file.endsWith('.js')) fetched.set(chunkName(file), r.status());
    });
    // The requests the page sends, by name: once usable it tells the app to warm up (app.ready).
    const sent: string[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push((JSON.parse(String(f.payload)) as { name?: string }).name ?? '')));
    await page.addInitScript({ content: PROBE });
    const nav = await page.goto(ui.aut.server.launchUrl);
    expect(nav?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    await expect.poll(() => sent.includes('app.ready')).toBe(true);
    expect(sent.slice(0, 4).sort()).toEqual(['app.info', 'conversation.list', 'providers.status', 'settings.get']);
    // Usable with none of them: nothing on demand was requested before the ready mark (an idle preload
    // of the conversation views starts after it).
    const beforeReady = await page.evaluate(() => {
      const ready = performance.getEntriesByName('oi-ready')[0]?.startTime ?? 0;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime < ready)
        .map((e) => e.name.split('/').pop() ?? '');
    });
    expect(beforeReady.some((f) => f.startsWith('index-') && f.endsWith('.js'))).toBe(true);
    expect(
      beforeReady
        .filter((f) => f.endsWith('.js'))
        .map(chunkName)
        .filter((n) => ON_DEMAND.includes(n)),
    ).toEqual([]);

    // A turn: markdown with code (marked, DOMPurify, the highlighter), a live run (xterm).
    ui.aut.llm.enqueue(
      {
        kind: 'tool',
        text: 'Running *it*.',
        calls: [{ id: 'c1', name: 'execute', arguments: { language: 'shell', code: 'echo lazy-chunks-ran' } }],
      },
      { kind: 'text', text: 'Done: ```python\nprint(1)\n```' },
    );
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'Go');
    await expectAttribute(page.getByTestId('cell').last(), 'data-status', 'done', 30_000);
    await expectText(page.getByTestId('terminal').last(), 'lazy-chunks-ran');
    expect(await page.getByTestId('assistant-message').first().locator('em').textContent()).toBe('it');
    expect(await page.getByTestId('cell-code').locator('.tok-builtin').first().textContent()).toBe('echo');

    // Previews: an image, a table and a notebook.
    const { workspace } = await currentConversation(ui.aut);
    writeFileSync(path.join(workspace, 'dots.png'), noisePng(20));
    writeFileSync(path.join(workspace, 'rows.csv'), 'name,count\nalpha,1\nbeta,2\n');
    writeFileSync(
      path.join(workspace, 'nb.ipynb'),
      JSON.stringify({
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {},
        cells: [{ id: 'a', cell_type: 'markdown', metadata: {}, source: '# Lazy notebook' }],
      }),
    );
    for (const [file, view] of [
      ['dots.png', 'preview-image'],
      ['rows.csv', 'table-preview'],
      ['nb.ipynb', 'notebook-preview'],
    ] as const) {
      const row = page.locator(`[role="treeitem"][data-path="${file}"]`);
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      await row.getByRole('button', { name: file }).click();
      await page.getByTestId(view).waitFor();
    }
    await expectText(page.getByTestId('notebook-preview'), 'Lazy notebook');

    // The remote kernel panel, Settings, API keys.
    await page.getByTestId('kernel-button').click();
    await page.getByTestId('kernel-state').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('settings-screen').waitFor();
    await page.getByRole('button', { name: 'API keys' }).click();
    await page.getByTestId('keys-screen').waitFor();

    for (const name of ON_DEMAND) expect(fetched.get(name), `${name} was not fetched, or not with 200`).toBe(200);
    expect([...fetched.values()].filter((status) => status !== 200)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
