import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import type { ExecSettings, SandboxSettings } from '@contract';
import { type ExecService, type LanguageInfo, type LanguagesScope, type PythonInfo, Languages } from '../exec';
import type { EnvironmentSnapshot } from './environment-snapshot';
import { installsPackages, installsRuntimes } from './python-packages';
import { localTimeZone, weekdayName } from './time-zone';
import { errorMessage } from '@contract/error-message';

export interface EnvironmentSources {
  /** The languages and runtimes as a run in this scope finds them. */
  languages(scope: LanguagesScope): Promise<LanguageInfo[]>;
  /** The interpreter Python code in this scope runs with (same rule as the exec engine) and its packages, or null. */
  python(scope: LanguagesScope): Promise<PythonInfo | null>;
  now(): Date;
  /** The user's login shell, which `shell` cells follow (default: $SHELL of the app). */
  loginShell?(): string | null;
}

/**
 * The real machine, through the exec engine: it runs the programs it asks in the conversation's
 * route, so with the sandbox on a workspace .venv's interpreter is never run outside it.
 */
export function machineSources(exec: Pick<ExecService, 'languages' | 'python'>): EnvironmentSources {
  return {
    languages: (scope) => exec.languages(scope),
    python: (scope) => exec.python(scope),
    now: () => new Date(),
    loginShell: () => Languages.loginShellOf(process.env),
  };
}

const MAX_LISTED_ENTRIES = 60;
const MAX_LISTED_PACKAGES = 250;
/** Runtimes are re-detected after this long even without an install seen (the user may install outside the app). */
const RUNTIMES_TTL_MS = 10 * 60_000;
const PACKAGES_TTL_MS = 10 * 60_000;
const RACY_MS = 2000;
/** Folders whose names are worth showing but whose bulk is not. */
const HIDDEN = new Set(['.oi', '.git', '.DS_Store']);

interface Timed<T> {
  at: number;
  value: Promise<T>;
}

/**
 * What the model is told about the machine before each call. Rebuilt every call (the date moves, the
 * workspace changes), from parts cached until something invalidates them: runtimes and packages are
 * detected by spawning processes (slow, cold) and kept until an install is seen or a TTL passes; the
 * workspace listing is kept while the folder's mtime is unchanged, which one stat() checks.
 */
export class EnvironmentContext {
  private readonly fixed: string;
  private readonly runtimes = new Map<string, Timed<LanguageInfo[]>>();
  private readonly pythons = new Map<string, Timed<PythonInfo | null>>();
  private readonly listings = new Map<string, { mtimeMs: number; text: string }>();

  /** Scopes whose first answer came from the snapshot: later ones (after an install) never do. */
  private readonly fromSnapshot = new Set<string>();

  /**
   * Detection that only refreshes a stored answer waits for this: it spawns a process per language and
   * scans PATH, which before the first model request has gone out would compete with it for the CPU
   * (most of `oi -m`'s start on a busy machine; bench/startup.bench.ts). Opened by `refreshStored`.
   */
  private readonly refreshGate: Promise<void>;
  private openRefreshGate: () => void = () => undefined;

  constructor(
    private readonly sources: EnvironmentSources,
    /** What the previous process found, to answer the first call without waiting for detection. */
    private readonly snapshot: EnvironmentSnapshot | null = null,
  ) {
    this.fixed = [
      `OS: ${osName()} (${process.platform}, ${process.arch})`,
      `Node.js (the app's own): ${process.version}`,
      `User: ${safeUserName()}; home folder: ${os.homedir()}`,
    ].join('\n');
    this.refreshGate = new Promise((resolve) => (this.openRefreshGate = resolve));
  }

  /** The first model call is on its way (or done): detection behind answers from the snapshot may start. */
  refreshStored(): void {
    this.openRefreshGate();
  }

  async render(workspace: string, exec: ExecSettings, sandbox?: SandboxSettings): Promise<string> {
    const scope: LanguagesScope = { workspace, settings: exec, ...(sandbox ? { sandbox } : {}) };
    const [runtimes, listing, packages] = await Promise.all([this.runtimeLines(scope), this.listing(workspace), this.packageLine(scope)]);
    return [
      this.fixed,
      await this.shellLine(scope),
      `Date and time: ${formatNow(this.sources.now())}`,
      `Workspace (the current directory of every session): ${workspace}`,
      listing,
      runtimes,
      packages,
    ].join('\n');
  }

  /** Called after each run: an install makes the next call list packages (and runtimes) again. */
  noteRun(code: string): void {
    if (installsPackages(code)) this.pythons.clear();
    if (installsRuntimes(code)) {
      this.runtimes.clear();
      this.pythons.clear();
    }
  }

  private languages(scope: LanguagesScope): Promise<LanguageInfo[]> {
    const key = scopeKey(scope);
    let found = this.runtimes.get(key);
    if (!found || Date.now() - found.at > RUNTIMES_TTL_MS) {
      const stored = !found && !this.fromSnapshot.has(`l${key}`) ? this.snapshot?.languages(key) : null;
      this.fromSnapshot.add(`l${key}`);
      const age = stored ? this.snapshot?.age(key, 'languages') : null;
      if (stored && age != null && age < RUNTIMES_TTL_MS) {
        // Found by the last process within the time-to-live this process would keep its own answer:
        // taken as found, not detected again (a process per language, ~0.5 CPU-seconds each `oi -m`).
        found = { at: Date.now() - age, value: Promise.resolve(stored) };
        this.runtimes.set(key, found);
        return found.value;
      }
      const detected = (stored ? this.refreshGate.then(() => this.sources.languages(scope)) : this.sources.languages(scope)).catch(
        () => [],
      );
      found = { at: Date.now(), value: stored ? Promise.resolve(stored) : detected };
      this.runtimes.set(key, found);
      void detected.then((value) => {
        this.snapshot?.save(key, { languages: value });
        // The stored answer stands in only until detection is done.
        if (stored && this.runtimes.get(key) === found) this.runtimes.set(key, { at: Date.now(), value: Promise.resolve(value) });
      });
    }
    return found.value;
  }

  /** Which shell each kind of shell cell runs in (the engine's rule, shell-choice.ts). */
  private async shellLine(scope: LanguagesScope): Promise<string> {
    const exec = scope.settings;
    if (process.platform === 'win32') return `Shell: ${process.env.ComSpec ?? 'cmd.exe'}`;
    const login = exec.env.SHELL ?? this.sources.loginShell?.() ?? process.env.SHELL ?? null;
    const zsh = (await this.languages(scope)).some((l) => l.name === 'zsh' && l.available);
    const generic = Languages.genericShell(exec.shell, login) === 'zsh' && zsh ? 'zsh' : 'bash';
    const why = exec.shell === 'auto' ? `the user's login shell is ${login ?? 'unknown'}` : `set in Settings`;
    const zshCells = zsh ? '`zsh` cells in zsh' : '`zsh` cells in bash too (zsh is not installed)';
    return `Shell: \`shell\` cells run in ${generic} (${why}); \`bash\`/\`sh\` cells run in bash and ${zshCells}; bash and zsh are separate sessions that do not share state`;
  }

  private async runtimeLines(scope: LanguagesScope): Promise<string> {
    const all = await this.languages(scope);
    const available = all.filter((l) => l.available).map((l) => (l.version ? `${l.name} ${l.version}` : l.name));
    const missing = all.filter((l) => !l.available).map((l) => l.name);
    return `Languages you can run: ${available.join(', ') || 'none detected'}${missing.length ? ` (not installed: ${missing.join(', ')})` : ''}`;
  }

  private async packageLine(scope: LanguagesScope): Promise<string> {
    const key = scopeKey(scope);
    let py = this.pythons.get(key);
    if (!py || Date.now() - py.at > PACKAGES_TTL_MS) {
      const stored = !py && !this.fromSnapshot.has(`p${key}`) ? this.snapshot?.python(key) : undefined;
      this.fromSnapshot.add(`p${key}`);
      const age = stored !== undefined ? this.snapshot?.age(key, 'python') : null;
      if (stored !== undefined && age != null && age < PACKAGES_TTL_MS) return this.keepPython(key, stored, age);
      const detected = (stored !== undefined ? this.refreshGate.then(() => this.sources.python(scope)) : this.sources.python(scope)).catch(
        () => null,
      );
      const entry: Timed<PythonInfo | null> = { at: Date.now(), value: stored !== undefined ? Promise.resolve(stored) : detected };
      py = entry;
      this.pythons.set(key, entry);
      void detected.then((value) => {
        this.snapshot?.save(key, { python: value });
        if (stored !== undefined && this.pythons.get(key) === entry)
          this.pythons.set(key, { at: Date.now(), value: Promise.resolve(value) });
      });
    }
    return packagesText(await py.value);
  }

  /** The stored package list taken as found `age` ms ago (see `languages`). */
  private keepPython(key: string, stored: PythonInfo | null, age: number): string {
    this.pythons.set(key, { at: Date.now() - age, value: Promise.resolve(stored) });
    return packagesText(stored);
  }

  private async listing(workspace: string): Promise<string> {
    let mtimeMs: number;
    try {
      // Synchronous: one system call before each model call, not a trip through libuv's pool (issue 37).
      mtimeMs = statSync(workspace).mtimeMs;
    } catch {
      return 'Workspace contents: (the folder does not exist yet)';
    }
    const cached = this.listings.get(workspace);
    // A folder changed within the timestamp granularity of some file systems (1–2 s) may change again
    // without its mtime moving, so a fresh mtime is not trusted (git's "racy clean" rule).
    const settled = Date.now() - mtimeMs > RACY_MS;
    if (cached && cached.mtimeMs === mtimeMs && settled) return cached.text;
    const text = await listWorkspace(workspace);
    this.listings.set(workspace, { mtimeMs, text });
    return text;
  }
}

/** Runtimes and packages differ by workspace, interpreter setting, PATH and sandbox. */
function scopeKey(scope: LanguagesScope): string {
  return JSON.stringify([
    scope.workspace,
    scope.settings.pythonPath ?? null,
    scope.settings.env.PATH ?? null,
    scope.sandbox?.enabled ? scope.sandbox : null,
  ]);
}

function packagesText(found: PythonInfo | null): string {
  if (!found) return 'Python packages: (no Python found)';
  const { command, packages: names } = found;
  if (names.length === 0) return `Python packages (${command}): none found besides the standard library`;
  const shown = names.slice(0, MAX_LISTED_PACKAGES).join(', ');
  const more = names.length > MAX_LISTED_PACKAGES ? ` … and ${names.length - MAX_LISTED_PACKAGES} more` : '';
  return `Python packages installed (${command}), import names: ${shown}${more}`;
}

async function listWorkspace(workspace: string): Promise<string> {
  let entries;
  try {
    entries = await readdir(workspace, { withFileTypes: true });
  } catch (err) {
    return `Workspace contents: (unreadable: ${errorMessage(err)})`;
  }
  const visible = entries.filter((e) => !HIDDEN.has(e.name));
  if (visible.length === 0) return 'Workspace contents: (empty)';
  visible.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  const names = visible.slice(0, MAX_LISTED_ENTRIES).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  const more = visible.length > MAX_LISTED_ENTRIES ? `, … and ${visible.length - MAX_LISTED_ENTRIES} more` : '';
  return `Workspace contents (top level): ${names.join(', ')}${more}`;
}

function osName(): string {
  if (process.platform === 'darwin') return `macOS (Darwin ${os.release()})`;
  if (process.platform === 'win32') return `Windows ${os.release()}`;
  const version = typeof os.version === 'function' ? os.version() : '';
  return `${os.type()} ${os.release()}${version ? ` ${version}` : ''}`;
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

function formatNow(date: Date): string {
  const zone = localTimeZone();
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  return `${local} (${zone}, UTC${sign}${hh}:${mm}), ${weekdayName(date)}`;
}
