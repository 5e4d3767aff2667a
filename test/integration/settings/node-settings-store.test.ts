import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, Settings, type SettingsPatch } from '@contract';
import { openNodeSettingsStore } from '../../../src-main/core/settings/node-settings-store';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oi-settings-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const FIXED_NOW = () => new Date('2026-01-02T03:04:05.678Z');
const settingsFile = (dir: string) => path.join(dir, 'settings.json');
const backups = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((name) => name !== 'settings.json')
    .sort();
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

function openWith(content: string | Buffer | null) {
  const dir = tempDir();
  if (content !== null) fs.writeFileSync(settingsFile(dir), content);
  return { dir, store: openNodeSettingsStore({ dir, now: FIXED_NOW }) };
}

describe('settings file under plain Node', () => {
  it('starts from the defaults without creating a file until something changes', () => {
    const { dir, store } = openWith(null);
    expect(store.get()).toEqual(defaultSettings);
    expect(store.notice).toBeNull();
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('persists changes across store instances, in an owner-only file', () => {
    const dir = tempDir();
    const first = openNodeSettingsStore({ dir });
    const updated = first.update({ model: 'gpt-4.1-mini', temperature: 0.2, exec: { timeoutMs: 5000 }, sandbox: { enabled: true } });
    expect(updated.exec.memoryMb).toBe(defaultSettings.exec.memoryMb); // nested groups merge, not replace

    const second = openNodeSettingsStore({ dir });
    expect(second.get()).toEqual(updated);
    expect(second.notice).toBeNull();
    expect(Settings.parse(readJson(settingsFile(dir)))).toEqual(updated);
    if (process.platform !== 'win32') expect(fs.statSync(settingsFile(dir)).mode & 0o777).toBe(0o600);
  });

  it('backs up a file of garbage bytes, resets to the defaults and says so, without throwing', () => {
    const garbage = Buffer.from([0x00, 0xff, 0x7b, 0x22, 0xfe, 0x13, 0x37]);
    const { dir, store } = openWith(garbage);
    expect(store.get()).toEqual(defaultSettings);
    expect(backups(dir)).toEqual(['settings.corrupt-2026-01-02T03-04-05-678Z.json']);
    expect(fs.readFileSync(path.join(dir, backups(dir)[0] ?? ''))).toEqual(garbage);
    expect(store.notice).toContain(settingsFile(dir));
    expect(store.notice).toMatch(/not valid JSON .* saved as .*settings\.corrupt-2026-01-02T03-04-05-678Z\.json.*defaults/);
    expect(Settings.parse(readJson(settingsFile(dir)))).toEqual(defaultSettings);
    expect(openNodeSettingsStore({ dir }).notice).toBeNull(); // reported once, not on every start
  });

  it('keeps the valid fields of a file with wrong types, resets the rest and drops unknown ones', () => {
    const file = {
      version: 1,
      model: 'llama3.1',
      provider: 'ollama',
      temperature: 'hot',
      autoRun: 'yes',
      theme: 'dark',
      exec: { timeoutMs: -5, memoryMb: 2048, env: { FOO: 'bar' }, color: 'blue' },
      sandbox: 'on',
      favouriteColour: 'teal',
    };
    const { dir, store } = openWith(JSON.stringify(file));
    const settings = store.get();
    expect(settings).toMatchObject({ model: 'llama3.1', provider: 'ollama', theme: 'dark', temperature: null, autoRun: false });
    expect(settings.exec).toMatchObject({ timeoutMs: defaultSettings.exec.timeoutMs, memoryMb: 2048, env: { FOO: 'bar' } });
    expect(settings.sandbox).toEqual(defaultSettings.sandbox);
    expect(store.notice).toMatch(/invalid values and are back to their defaults: temperature, autoRun, exec\.timeoutMs, sandbox/);
    expect(store.notice).toMatch(/unknown and were dropped: exec\.color, favouriteColour/);
    expect(store.notice).not.toContain('teal'); // names fields, never values
    expect(readJson(path.join(dir, backups(dir)[0] ?? ''))).toEqual(file);
    expect(readJson(settingsFile(dir))).toEqual(settings);
  });

  it('resets a file that is JSON but not an object', () => {
    const { dir, store } = openWith('[1, 2, 3]');
    expect(store.get()).toEqual(defaultSettings);
    expect(store.notice).toMatch(/did not hold a JSON object/);
    expect(backups(dir)).toHaveLength(1);
  });

  it('keeps an earlier backup when the file is corrupted again within the same millisecond', () => {
    const { dir } = openWith('{oops');
    fs.writeFileSync(settingsFile(dir), '{again');
    openNodeSettingsStore({ dir, now: FIXED_NOW });
    expect(backups(dir)).toEqual(['settings.corrupt-2026-01-02T03-04-05-678Z-1.json', 'settings.corrupt-2026-01-02T03-04-05-678Z.json']);
  });

  it('reads a file saved with a byte-order mark by a Windows editor', () => {
    const { dir, store } = openWith(`\uFEFF${JSON.stringify({ ...defaultSettings, model: 'o3' })}`);
    expect(store.get().model).toBe('o3');
    expect(store.notice).toBeNull();
    expect(backups(dir)).toEqual([]);
    expect(store.update({ theme: 'light' }).theme).toBe('light');
  });

  it('fills fields missing from an older file with their defaults, silently', () => {
    const { dir, store } = openWith(JSON.stringify({ version: 1, model: 'gpt-4o' }));
    expect(store.get()).toEqual({ ...defaultSettings, model: 'gpt-4o' });
    expect(store.notice).toBeNull();
    expect(backups(dir)).toEqual([]);
    expect(readJson(settingsFile(dir))).toEqual(store.get());
  });

  it('keeps a copy of a file from a newer version and uses the fields it understands', () => {
    const { dir, store } = openWith(JSON.stringify({ ...defaultSettings, version: 3, model: 'future-model', telemetry: 'off' }));
    expect(store.get().model).toBe('future-model');
    expect(store.get().version).toBe(2);
    expect(store.notice).toMatch(/newer version of the app \(settings v3; this one reads v2\)/);
    expect(store.notice).toMatch(/telemetry/);
    expect(backups(dir)).toEqual(['settings.from-v3-2026-01-02T03-04-05-678Z.json']);
  });

  it('reports a version field that is not a number and repairs the rest', () => {
    const { store } = openWith(JSON.stringify({ ...defaultSettings, version: 'one', model: 'kept' }));
    expect(store.get().model).toBe('kept');
    expect(store.notice).toMatch(/"version" field is not a whole number/);
  });

  it('keeps working in memory, and says so, when the folder cannot hold the file', () => {
    const parent = tempDir();
    const notADir = path.join(parent, 'occupied');
    fs.writeFileSync(notADir, 'a file where the data folder should be');
    const store = openNodeSettingsStore({ dir: notADir });
    expect(store.get()).toEqual(defaultSettings);
    expect(store.notice).toMatch(/cannot be saved to .*occupied.*changes last until the app quits/);
    expect(store.update({ model: 'in-memory' }).model).toBe('in-memory');
  });

  it('refuses an update that breaks the schema, naming the field, and keeps the previous settings', () => {
    const { dir, store } = openWith(null);
    const bad = { temperature: 9 } as SettingsPatch;
    expect(() => store.update(bad)).toThrow(/Settings not saved: temperature/);
    expect(store.get()).toEqual(defaultSettings);
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('never throws and always yields valid settings, whatever JSON the file holds', () => {
    const settingsLike = fc.record(
      {
        version: fc.oneof(fc.constant(1), fc.constant(0), fc.integer(), fc.string()),
        model: fc.oneof(fc.string(), fc.integer()),
        temperature: fc.oneof(fc.double(), fc.constant(null), fc.string()),
        exec: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
        sandbox: fc.jsonValue(),
        provider: fc.oneof(fc.constantFrom('openai', 'anthropic', 'ollama'), fc.string()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), settingsLike), (value) => {
        const { store } = openWith(JSON.stringify(value) ?? 'null');
        expect(Settings.safeParse(store.get()).success).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
