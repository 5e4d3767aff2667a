import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (playwright gives each launch a fresh temporary profile), driven by playwright-core (`npx playwright install` cannot download here). */
export const CHROMIUM_PATH = process.env.OI_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', // CI runs as root, where Chromium's own sandbox cannot start
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}
