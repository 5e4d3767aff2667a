/**
 * Makes the README's screenshot (docs/screenshot.png) from a real run of the current app: browser mode
 * on the built renderer, the scripted model asking for a matplotlib plot, the user approving it,
 * Debian's Python running it. Run after `npm run build`:
 *
 *   npx tsx --tsconfig tsconfig.test.json test/support/readme-screenshot.ts [out.png]
 */
import path from 'node:path';
import { launchChromium } from './browser';
import { REPO_ROOT } from './app-under-test';
import { SQUARES_PLOT } from './squares-plot';
import { openApp, sendMessage, startUiApp } from './ui-harness';

async function main(out: string): Promise<void> {
  const chromium = await launchChromium();
  const aut = await startUiApp({ settings: { exec: { pythonPath: '/usr/bin/python3' } } });
  try {
    const { page } = await openApp(chromium.browser, aut, { width: 1400, height: 860 });
    aut.llm.enqueue(
      {
        kind: 'tool',
        text: 'Plotting the squares of 1 to 10.',
        calls: [{ id: 'call_p', name: 'execute', arguments: { language: 'python', code: SQUARES_PLOT } }],
      },
      { kind: 'text', text: 'The curve is a parabola: each value is the square of its x.' },
    );
    await sendMessage(page, 'Plot the squares of 1 to 10');
    await page.getByRole('group', { name: 'Approve this code' }).getByRole('button', { name: 'Run', exact: true }).click();
    // Playwright's own waits: this runs outside vitest, whose expect.poll needs its runner.
    await page.getByTestId('assistant-message').filter({ hasText: 'parabola' }).waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="cell"][data-status="done"]').waitFor();
    await page.locator('[role="treeitem"][data-path="squares.png"][data-changed="true"]').waitFor();
    await page.waitForFunction(() => {
      const shown = [...document.querySelectorAll<HTMLImageElement>('[data-testid="output-image"], [data-testid="preview-image"]')];
      return shown.length >= 2 && shown.every((img) => img.complete && img.naturalWidth > 100);
    });
    // The answer is in; the cursor back in the message box, as after any turn.
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await aut.close();
    await chromium.close();
  }
}

await main(path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'docs', 'screenshot.png')));
