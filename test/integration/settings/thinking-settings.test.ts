import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings, type SettingsPatch } from '@contract';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { openNodeSettingsStore } from '../../../src-main/core/settings/node-settings-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import type { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { useCoreApps } from '../../support/core-apps';

// settings.set through the real dispatcher and handler table, over both settings stores the app uses:
// the thinking budget is refused with an error naming the field, by the schema (below Anthropic's
// minimum) or by main's rule against the model's output limit, and nothing is saved then.

const core = useCoreApps('oi-thinking-settings-');
const tempDir = core.tempDir;

function appWith(settings: SettingsStore): Dispatcher {
  return createDispatcher(core.app(settings).handlers);
}

const set = (dispatch: Dispatcher, patch: SettingsPatch | Record<string, unknown>) =>
  dispatch('settings.set', patch, { transport: 'websocket' });
const claude: SettingsPatch = { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: null };

const stores: Array<[string, () => SettingsStore]> = [
  ['the settings file', () => openNodeSettingsStore({ dir: tempDir() })],
  ['memory', () => new MemorySettingsStore()],
];

describe.each(stores)('the thinking budget in settings.set (%s)', (_name, open) => {
  it('refuses a budget below 1024 tokens, naming the field', async () => {
    const store = open();
    const dispatch = appWith(store);
    const reply = await set(dispatch, { ...claude, thinkingBudgetTokens: 500 });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('invalid-input');
    expect(reply.error.message).toContain('thinkingBudgetTokens');
    expect(reply.error.message).toContain('at least 1024');
    expect(store.get().thinkingBudgetTokens).toBeNull();
  });

  it('refuses a budget not below the model’s output limit, or below Max output when set', async () => {
    const store = open();
    const dispatch = appWith(store);
    expect((await set(dispatch, claude)).ok).toBe(true);

    // claude-sonnet-4-5 may write 64,000 tokens.
    const atLimit = await set(dispatch, { thinkingBudgetTokens: 64_000 });
    expect(atLimit.ok).toBe(false);
    if (!atLimit.ok) {
      expect(atLimit.error.code).toBe('handler-error');
      expect(atLimit.error.message).toMatch(
        /thinkingBudgetTokens: .*64000 tokens.*must be less than the output limit of claude-sonnet-4-5 \(64000 tokens\)/,
      );
    }
    expect(store.get().thinkingBudgetTokens).toBeNull();

    expect((await set(dispatch, { thinkingBudgetTokens: 10_000 })).ok).toBe(true);
    expect(store.get().thinkingBudgetTokens).toBe(10_000);

    // Lowering Max output under the budget is refused as well, and says which field to change.
    const lower = await set(dispatch, { maxOutputTokens: 8000 });
    expect(lower.ok).toBe(false);
    if (!lower.ok) expect(lower.error.message).toMatch(/thinkingBudgetTokens: .*less than Max output \(maxOutputTokens = 8000\)/);
    expect(store.get().maxOutputTokens).toBeNull();

    // Switching to a thinking model that cannot write that much is refused too.
    expect((await set(dispatch, { thinkingBudgetTokens: 40_000 })).ok).toBe(true);
    const smaller = await set(dispatch, { model: 'claude-opus-4-1' });
    expect(smaller.ok).toBe(false);
    if (!smaller.ok) expect(smaller.error.message).toContain('thinkingBudgetTokens');
    expect(store.get().model).toBe('claude-sonnet-4-5');
    // A model from before extended thinking is not asked to think, so the budget does not stand in the way.
    expect((await set(dispatch, { model: 'claude-3-5-haiku-latest' })).ok).toBe(true);
    expect((await set(dispatch, { model: 'claude-sonnet-4-5' })).ok).toBe(true);

    // Unrelated changes go through, and thinking can always be turned off.
    expect((await set(dispatch, { theme: 'dark' })).ok).toBe(true);
    expect((await set(dispatch, { thinkingBudgetTokens: null })).ok).toBe(true);
    expect((await set(dispatch, { model: 'claude-3-5-haiku-latest' })).ok).toBe(true);
  });

  it('accepts any reasoning effort of the three, and null; refuses others naming the field', async () => {
    const store = open();
    const dispatch = appWith(store);
    for (const effort of ['low', 'medium', 'high', null] as const) {
      expect((await set(dispatch, { reasoningEffort: effort })).ok).toBe(true);
      expect(store.get().reasoningEffort).toBe(effort);
    }
    const reply = await set(dispatch, { reasoningEffort: 'extreme' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.message).toContain('reasoningEffort');
  });
});

describe('the stored settings file', () => {
  it('reads a v1 file written before thinking existed without a notice: both are off', () => {
    const dir = tempDir();
    const {
      thinkingBudgetTokens: _t,
      reasoningEffort: _r,
      ...before
    } = { ...defaultSettings, model: 'claude-opus-4-5', provider: 'anthropic' as const };
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(before));
    const store = openNodeSettingsStore({ dir });
    expect(store.notice).toBeNull();
    expect(store.get()).toMatchObject({ model: 'claude-opus-4-5', thinkingBudgetTokens: null, reasoningEffort: null });
    expect(fs.readdirSync(dir).filter((f) => f !== 'settings.json')).toEqual([]);

    store.update({ thinkingBudgetTokens: 16_000, reasoningEffort: 'low' });
    const reopened = openNodeSettingsStore({ dir });
    expect(reopened.get()).toMatchObject({ thinkingBudgetTokens: 16_000, reasoningEffort: 'low' });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8'))).toMatchObject({
      version: 2,
      thinkingBudgetTokens: 16_000,
    });
  });
});
