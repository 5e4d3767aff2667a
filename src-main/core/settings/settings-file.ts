import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { applySettingsPatch, defaultSettings, Settings, type SettingsPatch, errorMessage } from '@contract';
import { migrateSettingsDocument, SETTINGS_VERSION } from './migrations';
import { isPlainObject, repairSettings } from './settings-repair';
import { patchProblem } from './settings-rules';
import type { SettingsStore } from './settings-store';

/** The file is <app data>/settings.json in the desktop app and under plain Node alike. */
export const SETTINGS_CONFIG_NAME = 'settings';

/** Owner-only: settings name the workspace and may carry environment variables for code runs. */
export const SETTINGS_FILE_MODE = 0o600;

/** What the core needs from the file's writer (node-settings-store.ts): the path, and a way to write it. */
export interface SettingsFileBackend {
  readonly path: string;
  open(): SettingsDocument;
}

export interface SettingsDocument {
  /** Writes the whole document (atomically, owner-only). */
  set(settings: Settings): void;
}

export interface SettingsFileOptions {
  /** Clock for backup names, injectable for tests. */
  now?: () => Date;
}

/**
 * Reads, migrates and repairs the settings file, then serves it as a SettingsStore. Never throws for what
 * is in the file: an unreadable or invalid file is moved aside as settings.corrupt-<time>.json, the usable
 * fields are kept, and `notice` says what happened. If the file cannot be written at all, settings last
 * for this run only and `notice` says that instead.
 */
export function openSettingsFile(backend: SettingsFileBackend, options: SettingsFileOptions = {}): SettingsStore {
  const now = options.now ?? (() => new Date());
  const loaded = load(backend.path, now);
  let document: SettingsDocument;
  try {
    document = backend.open();
    if (loaded.needsWrite) document.set(loaded.settings);
  } catch (error) {
    const notice = joinNotices(
      loaded.notice,
      `Settings cannot be saved to ${backend.path} (${errorMessage(error)}); changes last until the app quits.`,
    );
    return new SettingsFileStore(loaded.settings, null, backend.path, notice);
  }
  return new SettingsFileStore(loaded.settings, document, backend.path, loaded.notice);
}

class SettingsFileStore implements SettingsStore {
  constructor(
    private current: Settings,
    private readonly document: SettingsDocument | null,
    private readonly filePath: string,
    readonly notice: string | null,
  ) {}

  get(): Settings {
    return this.current;
  }

  update(patch: SettingsPatch): Settings {
    const checked = Settings.safeParse(applySettingsPatch(this.current, patch));
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new Error(`Settings not saved: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid value'}`);
    }
    const problem = patchProblem(checked.data, patch);
    if (problem) throw new Error(`Settings not saved: ${problem}`);
    if (this.document) {
      try {
        this.document.set(checked.data);
      } catch (error) {
        throw new Error(`Could not save settings to ${this.filePath}: ${errorMessage(error)}`, { cause: error });
      }
    }
    this.current = checked.data;
    return this.current;
  }
}

interface Loaded {
  settings: Settings;
  needsWrite: boolean;
  notice: string | null;
}

function load(file: string, now: () => Date): Loaded {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { settings: structuredClone(defaultSettings), needsWrite: false, notice: null };
    // Unreadable for a reason a backup cannot fix (permissions, a directory in its place): use the
    // defaults; opening the library will most likely fail too and add its own notice.
    return {
      settings: structuredClone(defaultSettings),
      needsWrite: false,
      notice: `Settings could not be read from ${file} (${errorMessage(error)}); the defaults are in use.`,
    };
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const backup = moveAside(file, 'corrupt', now);
    return {
      settings: structuredClone(defaultSettings),
      needsWrite: true,
      notice: `The settings file ${file} was not valid JSON (${errorMessage(error)}). ${kept(backup)} All settings are back to their defaults.`,
    };
  }

  if (!isPlainObject(parsed)) {
    const backup = moveAside(file, 'corrupt', now);
    return {
      settings: structuredClone(defaultSettings),
      needsWrite: true,
      notice: `The settings file ${file} did not hold a JSON object. ${kept(backup)} All settings are back to their defaults.`,
    };
  }

  const migration = migrateSettingsDocument(parsed);
  const { settings, invalid, unknown } = repairSettings(migration.document);
  const problems: string[] = [];
  if (migration.status === 'invalid-version') problems.push('its "version" field is not a whole number');
  if (invalid.length > 0) problems.push(`these fields had invalid values and are back to their defaults: ${invalid.join(', ')}`);
  if (unknown.length > 0) problems.push(`these fields are unknown and were dropped: ${unknown.join(', ')}`);

  if (migration.status === 'newer') {
    const backup = moveAside(file, `from-v${migration.from}`, now);
    const lost = problems.length > 0 ? ` Of what it holds, ${problems.join('; ')}.` : '';
    return {
      settings,
      needsWrite: true,
      notice: `The settings file ${file} was written by a newer version of the app (settings v${migration.from}; this one reads v${SETTINGS_VERSION}). ${kept(backup)} The settings this version understands were kept.${lost}`,
    };
  }
  if (problems.length > 0) {
    const backup = moveAside(file, 'corrupt', now);
    return {
      settings,
      needsWrite: true,
      notice: `Some settings in ${file} could not be used: ${problems.join('; ')}. ${kept(backup)}${keyWarning(unknown, backup)}`,
    };
  }
  return { settings, needsWrite: !isDeepStrictEqual(parsed, settings), notice: null };
}

/**
 * Renames the file to <name>.<label>-<time>.json beside it. A rename, not a copy: no second copy of the
 * user's file is made, and the library then opens a fresh file. Returns null if even that failed.
 */
function moveAside(file: string, label: string, now: () => Date): string | null {
  const { dir, name, ext } = path.parse(file);
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; attempt < 100; attempt++) {
    const target = path.join(dir, `${name}.${label}-${stamp}${attempt === 0 ? '' : `-${attempt}`}${ext}`);
    if (fs.existsSync(target)) continue;
    try {
      fs.renameSync(file, target);
      return target;
    } catch {
      return null;
    }
  }
  return null;
}

function kept(backup: string | null): string {
  return backup
    ? `The original was saved as ${backup}.`
    : 'The original could not be moved aside (check the folder permissions), so saving settings may overwrite it.';
}

/** Field names that suggest a key was written into the file by hand (Open Interpreter kept `api_key` there). */
const KEY_LIKE_FIELD = /(^|[._-])(api[_-]?key|apikey|token|secret|password)$/i;

function keyWarning(unknown: string[], backup: string | null): string {
  const keyFields = unknown.filter((field) => KEY_LIKE_FIELD.test(field));
  if (keyFields.length === 0) return '';
  const where = backup ? 'the saved original' : 'the file';
  return ` ${keyFields.join(', ')} looks like an API key in plain text: it was not imported. Enter it in Settings → API keys (kept in the OS keychain), then delete ${where}.`;
}

function joinNotices(...notices: Array<string | null>): string | null {
  const present = notices.filter((n): n is string => n !== null);
  return present.length > 0 ? present.join(' ') : null;
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
