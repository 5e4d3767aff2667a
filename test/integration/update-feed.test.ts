import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { openNodeSettingsStore } from '../../src-main/core/settings/node-settings-store';
import { CHECK_INTERVAL_MS, UpdateFeed, type UpdateState } from '../../src-main/electron/update-feed';
import { startUpdates, updateHandlers } from '../../src-main/electron/updates';
import { useCoreApps } from '../support/core-apps';
import { CURRENT, HANG, sha512, startFeedServer, type FeedServer } from '../support/update-feed-server';

// Issue 33, item 4: updates from a generic feed, checked against a feed server this test starts. The
// Electron binary cannot run here, so electron-updater runs under Node: its Linux (.deb) updater with
// the app described by an AppAdapter (what Electron's app would say) and its requests made with Node's
// http instead of Electron's net. The feed parsing, the version comparison, the download and its
// sha512 check are electron-updater's own; the policy around them is update-feed.ts. Installing is
// left for a machine with the binary (docs/release.md).

const apps = useCoreApps('oi-updates-');
let requested: string[] = [];

let server: FeedServer;
const publish: FeedServer['publish'] = (...args) => server.publish(...args);
const newUpdater = () => server.newUpdater();
const feed = { clear: () => server.feed.clear(), set: (k: string, v: string | Buffer | typeof HANG) => void server.feed.set(k, v) };

function newFeed(checkTimeoutMs = 30_000) {
  const { updater } = newUpdater();
  const states: UpdateState[] = [];
  const updates = new UpdateFeed(updater, { checkTimeoutMs, downloadTimeoutMs: 60_000, onState: (s) => void states.push(s) });
  return { updates, updater, states };
}

beforeAll(async () => {
  server = await startFeedServer();
  requested = server.requested;
});

afterAll(() => server.close());

describe('updates from a generic feed', () => {
  it('downloads a newer version, verified, ready to install on quit, with its release notes', async () => {
    publish('0.2.0', { notes: 'Notebooks open with a double-click.' });
    const { updates, updater, states } = newFeed();
    const state = await updates.check();
    expect(state).toMatchObject({ phase: 'ready', version: '0.2.0', currentVersion: CURRENT, error: null });
    expect(state.releaseNotes).toBe('Notebooks open with a double-click.');
    expect(states.map((s) => s.phase)).toEqual(['checking', 'downloading', 'ready']);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(requested).toContain('/open-interpreter-desktop_0.2.0_amd64.deb');
  });

  it('finds nothing to do when the feed has the same version or an older one, and downloads nothing', async () => {
    for (const version of [CURRENT, '0.0.9']) {
      publish(version);
      requested.length = 0;
      const { updates } = newFeed();
      const state = await updates.check();
      expect(state, version).toMatchObject({ phase: 'up-to-date', version: null, error: null });
      expect(
        requested.filter((r) => r.endsWith('.deb')),
        version,
      ).toEqual([]);
    }
  });

  it('refuses a download whose checksum does not match the feed, and is not ready to install it', async () => {
    publish('0.3.0', { sha512: sha512(Buffer.from('some other bytes')) });
    const { updates, states } = newFeed();
    const state = await updates.check();
    expect(state.phase).toBe('failed');
    expect(state.error).toMatch(/sha512 checksum mismatch/);
    expect(states.some((s) => s.phase === 'ready')).toBe(false);
    // Twin: the same feed with the right checksum is accepted, so the refusal was the checksum's.
    publish('0.3.0');
    expect((await newFeed().updates.check()).phase).toBe('ready');
  });

  it('gives up on a feed that never answers after its time limit, and says so in the state', async () => {
    feed.clear();
    feed.set('/latest-linux.yml', HANG);
    const { updates } = newFeed(1_500);
    const state = await updates.check();
    expect(state).toMatchObject({ phase: 'failed', error: 'the update feed did not answer within 2 s' });
    expect(state.checkedAt).not.toBeNull();
  });

  it('checks in the background at most once a day', () => {
    let now = 1_000_000_000_000;
    publish(CURRENT);
    const { updater } = newFeed();
    const updates = new UpdateFeed(updater, { checkTimeoutMs: 1000, downloadTimeoutMs: 1000, now: () => now });
    expect(updates.due(null)).toBe(true);
    const checked = now;
    now += CHECK_INTERVAL_MS - 1;
    expect(updates.due(checked)).toBe(false);
    now += 1;
    expect(updates.due(checked)).toBe(true);
  });
});

describe('Settings → Updates and its requests', () => {
  const start = (over: Partial<Parameters<typeof startUpdates>[0]> & { dir: string }) =>
    startUpdates({ isPackaged: true, resourcesPath: over.dir, dataDir: over.dir, enabled: () => true, ...over });

  it('never looks for updates in a build made from source, whatever the switch says, and says so', async () => {
    publish('0.2.0');
    requested.length = 0;
    const { updater, dir } = newUpdater();
    // Run from source (not packaged), and packaged without a feed named at build time (npm run dist).
    rmSync(path.join(dir, 'app-update.yml'));
    expect(start({ dir, isPackaged: false, updater: () => updater })).toBeNull();
    expect(start({ dir, updater: () => updater })).toBeNull();
    const dispatch = createDispatcher({ ...apps.app(new MemorySettingsStore()).handlers, ...updateHandlers(null, CURRENT) });
    for (const name of ['app.updates', 'app.check-updates'] as const)
      expect(await dispatch(name, {}, { transport: 'ipc' })).toEqual({
        ok: true,
        result: {
          available: false,
          phase: 'idle',
          currentVersion: CURRENT,
          version: null,
          releaseNotes: null,
          error: null,
          checkedAt: null,
        },
      });
    expect(requested).toEqual([]);
  });

  it('a release build with the switch off does not look in the background; on, it does; Check now looks either way', async () => {
    publish('0.2.0', { notes: 'Save As for notebooks.' });
    const off = newUpdater();
    const quiet = start({ dir: off.dir, enabled: () => false, updater: () => off.updater });
    expect(quiet?.state.phase).toBe('idle');
    // Twin: the same build with the switch on starts its check as it starts.
    const on = newUpdater();
    const eager = start({ dir: on.dir, updater: () => on.updater });
    expect(eager?.state.phase).toBe('checking');
    expect((await eager?.check())?.phase).toBe('ready');

    const dispatch = createDispatcher({ ...apps.app(new MemorySettingsStore()).handlers, ...updateHandlers(quiet, CURRENT) });
    const checked = await dispatch('app.check-updates', {}, { transport: 'ipc' });
    expect(checked).toMatchObject({
      ok: true,
      result: {
        available: true,
        phase: 'ready',
        currentVersion: CURRENT,
        version: '0.2.0',
        releaseNotes: 'Save As for notebooks.',
        error: null,
      },
    });
    expect(await dispatch('app.updates', {}, { transport: 'ipc' })).toEqual(checked);
    // The check is remembered in the data folder: the next start does not look again the same day.
    expect(JSON.parse(readFileSync(path.join(off.dir, 'update-last-check.json'), 'utf8'))).toMatchObject({ checkedAt: expect.any(Number) });
    expect(start({ dir: off.dir, updater: () => newUpdater().updater })?.state.phase).toBe('idle');
  });

  it('keeps the switch across restarts, and the background check reads it', async () => {
    const dataDir = apps.tempDir();
    const first = apps.app(openNodeSettingsStore({ dir: dataDir }));
    expect(first.context.settings.get().updates).toBe(true);
    const set = await createDispatcher(first.handlers)('settings.set', { updates: false }, { transport: 'ipc' });
    expect(set).toMatchObject({ ok: true, result: { updates: false } });
    await first.dispose();
    const settings = openNodeSettingsStore({ dir: dataDir });
    expect(settings.get().updates).toBe(false);
    const { updater, dir } = newUpdater();
    expect(start({ dir, enabled: () => settings.get().updates, updater: () => updater })?.state.phase).toBe('idle');
    settings.update({ updates: true });
    expect(openNodeSettingsStore({ dir: dataDir }).get().updates).toBe(true);
  });
});
