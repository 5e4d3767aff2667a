import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { LanguageInfo, PythonInfo } from '../exec';

/** What the last process found about a scope's runtimes and Python, kept for the next one. */
export interface EnvironmentSnapshot {
  languages(key: string): LanguageInfo[] | null;
  python(key: string): PythonInfo | null | undefined;
  /** How long ago that part was detected (ms), or null when unknown (not stored, or stored by an older version). */
  age(key: string, part: 'languages' | 'python'): number | null;
  save(key: string, part: { languages: LanguageInfo[] } | { python: PythonInfo | null }): void;
}

interface Entry {
  at: number;
  languages?: LanguageInfo[];
  python?: PythonInfo | null;
  /** When each part was detected: `at` moves with either. */
  found?: { languages?: number; python?: number };
}

/** Older than this, what was found is not used even as a first answer. */
const MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * Runtime detection spawns a process per language, which on a busy machine takes over a second — too
 * long to wait for before every `oi -m`'s first model call. A file in the data folder keeps what the
 * last process found (per scope, and per PATH); the next process answers its first call from it while
 * detecting afresh in the background — or, when it was found within the runtimes' time-to-live, takes it
 * as found (environment-context.ts). Only facts for the model's prompt are kept: nothing in it is run.
 */
export function fileEnvironmentSnapshot(file: string, now: () => number = Date.now): EnvironmentSnapshot {
  let entries: Record<string, Entry> | null = null;
  const load = (): Record<string, Entry> => {
    if (entries) return entries;
    try {
      entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
    } catch {
      entries = {};
    }
    return entries;
  };
  const fresh = (key: string): Entry | null => {
    const entry = load()[withPath(key)];
    return entry && now() - entry.at < MAX_AGE_MS ? entry : null;
  };
  return {
    languages: (key) => fresh(key)?.languages ?? null,
    python: (key) => fresh(key)?.python,
    age(key, part) {
      const at = fresh(key)?.found?.[part];
      return typeof at === 'number' ? Math.max(0, now() - at) : null;
    },
    save(key, part) {
      const all = load();
      const was = all[withPath(key)];
      const found = { ...was?.found, ['languages' in part ? 'languages' : 'python']: now() };
      all[withPath(key)] = { ...was, ...part, found, at: now() };
      try {
        // Into the data folder the app made at its start, never making it again: a probe that ends
        // after the app was closed and its folder removed (a test's, a throwaway profile) leaves nothing.
        writeFileSync(`${file}.tmp`, JSON.stringify(all), { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
      } catch {
        // A cache that cannot be written only makes the next start slower.
      }
    },
  };
}

/** A different PATH finds different programs. */
function withPath(key: string): string {
  return `${key}\n${process.env.PATH ?? ''}`;
}
