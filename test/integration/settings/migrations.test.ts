import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { openNodeSettingsStore } from '../../../src-main/core/settings/node-settings-store';
import { migrateSettingsDocument, migrationSteps, SETTINGS_VERSION } from '../../../src-main/core/settings/migrations';

describe('settings migrations', () => {
  it('has a step for every version below the current one', () => {
    for (let version = 0; version < SETTINGS_VERSION; version++) expect(migrationSteps[version]).toBeTypeOf('function');
    expect(SETTINGS_VERSION).toBe(2);
  });

  it('makes the sandbox the default for a v1 file that never chose it, and keeps a v1 choice of on', () => {
    const v1 = (enabled: boolean) => ({ version: 1, sandbox: { enabled, allowNetwork: false, extraPaths: [] } });
    expect(migrateSettingsDocument(v1(false)).document).toEqual({
      version: 2,
      sandbox: { enabled: false, chosen: false, allowNetwork: false, extraPaths: [] },
    });
    expect(migrateSettingsDocument(v1(true)).document).toEqual({
      version: 2,
      sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [] },
    });
  });

  it('leaves a current document alone', () => {
    expect(migrateSettingsDocument({ ...defaultSettings })).toEqual({ status: 'current', document: defaultSettings, from: 2 });
  });

  it('renames Open Interpreter spellings in an unversioned file, the current name winning over both', () => {
    const result = migrateSettingsDocument({ auto_run: true, api_base: 'http://a.example/v1', baseUrl: 'http://b.example/v1', model: 'm' });
    expect(result).toEqual({
      status: 'migrated',
      from: 0,
      document: { autoRun: true, baseUrl: 'http://b.example/v1', model: 'm', version: 2 },
    });
  });

  it('migrates a v0 file on disk: known names kept, the plain-text key dropped and reported', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-settings-v0-'));
    try {
      const v0 = {
        model: 'gpt-4o',
        auto_run: true,
        context_window: 128000,
        max_tokens: 4096,
        custom_instructions: 'Answer briefly.',
        api_key: 'sk-should-not-survive-1234567890',
      };
      fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(v0));
      const store = openNodeSettingsStore({ dir });
      expect(store.get()).toEqual({
        ...defaultSettings,
        model: 'gpt-4o',
        autoRun: true,
        contextWindow: 128000,
        maxOutputTokens: 4096,
        customInstructions: 'Answer briefly.',
      });
      expect(store.notice).toMatch(/unknown and were dropped: api_key/);
      expect(store.notice).toMatch(/api_key looks like an API key in plain text: it was not imported\. Enter it in Settings → API keys/);
      expect(store.notice).not.toContain('sk-should-not-survive');
      expect(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')).not.toContain('sk-should-not-survive');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates a clean v0 file without a notice or a backup', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-settings-v0-'));
    try {
      fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ model: 'gpt-4o', auto_run: true }));
      const store = openNodeSettingsStore({ dir });
      expect(store.notice).toBeNull();
      expect(store.get()).toMatchObject({ version: 2, model: 'gpt-4o', autoRun: true });
      expect(fs.readdirSync(dir)).toEqual(['settings.json']);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8'))).toMatchObject({ version: 2, autoRun: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
