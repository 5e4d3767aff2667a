import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpdates, updateHandlers } from '../../src-main/electron/updates';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { CURRENT, startFeedServer, type FeedServer } from '../support/update-feed-server';

// Settings → Updates in the window (issue 33, item 4). A release build's requests are the desktop
// shell's (electron/updates.ts) over electron-updater, here under Node against a local feed
// (test/support/update-feed-server.ts), put in place of the core's as the shell does; a build without
// a feed is the core's own answer, as in browser mode and a build made from source.

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
  server.publish('0.2.0', { notes: 'Notebooks save where you choose.' });
});
afterAll(() => server.close());

const openUpdates = async (page: Page) => {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  return page.getByRole('switch', { name: 'Look for a new version once a day' });
};

describe('Settings → Updates in a release build', () => {
  const ui = useUiApp(() => ({
    settings: { updates: false },
    settingsOnDisk: true,
    shellHandlers: (app) => {
      const { updater, dir } = server.newUpdater();
      const feed = startUpdates({
        isPackaged: true,
        resourcesPath: dir,
        dataDir: dir,
        enabled: () => app.context.settings.get().updates,
        updater: () => updater,
      });
      return updateHandlers(feed, CURRENT);
    },
  }));

  it('with the switch off looks for nothing until Check now, then shows the new version and its notes; the switch persists', async () => {
    const { page } = ui;
    const toggle = await openUpdates(page);
    expect(await toggle.isChecked()).toBe(false);
    const status = page.getByTestId('updates-status');
    await expectText(status.getByRole('status'), `Version ${CURRENT}. Not checked yet.`);
    // Off: the app started without asking the feed.
    expect(server.requested).not.toContain('/latest-linux.yml');

    await status.getByRole('button', { name: 'Check now' }).click();
    await expectText(status.getByRole('status'), `Version ${CURRENT}. Ready: installed when the app quits 0.2.0`);
    const notes = page.getByLabel('Release notes of 0.2.0');
    await expectText(notes, 'What is new in 0.2.0');
    await expectText(notes, 'Notebooks save where you choose.');
    expect(server.requested).toContain('/open-interpreter-desktop_0.2.0_amd64.deb');

    await toggle.click();
    await expect.poll(() => ui.aut.app.context.settings.get().updates).toBe(true);
    const onDisk = () => (JSON.parse(readFileSync(path.join(ui.aut.dataDir, 'settings.json'), 'utf8')) as { updates?: boolean }).updates;
    expect(onDisk()).toBe(true);
    await page.reload();
    const reloaded = await openUpdates(page);
    expect(await reloaded.isChecked()).toBe(true);
    await reloaded.click();
    await expect.poll(onDisk).toBe(false);
  });
});

describe('Settings → Updates without a feed (browser mode, a build made from source)', () => {
  const ui = useUiApp();

  it('says this build has no update feed, and offers no Check now', async () => {
    const { page } = ui;
    await openUpdates(page);
    await expectText(
      page.getByTestId('updates-status'),
      /Version test\. This build has no update feed: only the desktop app’s release builds/,
    );
    expect(await page.getByRole('button', { name: 'Check now' }).count()).toBe(0);
  });
});
