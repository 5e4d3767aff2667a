import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { createDispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { useCoreApps } from '../../support/core-apps';

// exec.sessionIdleMs through the real dispatcher: a value the schema refuses is named with what is
// wrong and what 0 means, and nothing is saved; 0 (never) and a number of minutes are kept.

const core = useCoreApps('oi-idle-setting-');

describe('the idle time before sessions end, in settings.set', () => {
  it('is 30 minutes by default, keeps 0 (never) and refuses a negative or fractional value with a clear error', async () => {
    const store = new MemorySettingsStore();
    const dispatch = createDispatcher(core.app(store).handlers);
    const set = (sessionIdleMs: unknown) => dispatch('settings.set', { exec: { sessionIdleMs } }, { transport: 'websocket' });
    expect(defaultSettings.exec.sessionIdleMs).toBe(30 * 60 * 1000);

    for (const [bad, says] of [
      [-1, 'cannot be negative (0 = never)'],
      [1.5, 'whole number of milliseconds (0 = never)'],
      ['30m', 'must be a number of milliseconds (0 = never)'],
    ] as const) {
      const reply = await set(bad);
      expect(reply.ok, String(bad)).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code).toBe('invalid-input');
      expect(reply.error.message).toContain('sessionIdleMs');
      expect(reply.error.message).toContain(says);
      expect(store.get().exec.sessionIdleMs).toBe(defaultSettings.exec.sessionIdleMs);
    }

    expect((await set(0)).ok).toBe(true);
    expect(store.get().exec.sessionIdleMs).toBe(0);
    expect((await set(5 * 60 * 1000)).ok).toBe(true);
    expect(store.get().exec.sessionIdleMs).toBe(5 * 60 * 1000);
  });
});
