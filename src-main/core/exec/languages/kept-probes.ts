import { renameSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readBeneath } from '../../fs/bounded-read';

// A pyenv shim's probe answer kept across starts (issue 25 item 12). Asking `python3` through
// pyenv's shim runs a dozen bash scripts before the interpreter itself (~400 ms on a quiet machine,
// seconds on a busy one), and every `oi mcp` or `oi` start asked again. The answer is kept in the
// data folder (which the sandbox seals: no sandboxed cell can write it) with a fingerprint of
// everything pyenv reads to choose an interpreter: its PYENV_* variables, the global version files
// (their content), the `.python-version` files it would look at from where probes run, the shim,
// pyenv itself, its plugins and the installed versions. A change to any of them (`pyenv global`,
// `pyenv shell`, `pyenv install`, an upgrade) is another fingerprint, so the shim is asked again.
// Only for a pyenv shim (the script pyenv writes, in its root's shims folder), and only for local probes (probing.ts): a program sandboxed
// code could have written is never asked outside the sandbox, kept answer or not.

/** A probe's answer (probing.ts's ProbeAnswer, written out here so neither file imports the other's). */
interface ProbeAnswer {
  ok: boolean;
  stdout: string;
  stderr: string;
}

const MAX_BYTES = 64 * 1024;
const MAX_ENTRIES = 32;

interface Entry {
  fingerprint: string;
  answer: ProbeAnswer;
}

let keptIn: string | null = null;

/** Where kept answers live (`<data folder>/probe-cache.json`), or null for none (the default: tests' engines). */
export function keepProbesIn(file: string | null): void {
  keptIn = file;
}

/** The kept answer for `key` when what pyenv reads is still the same, else null. */
export async function keptAnswer(
  key: string,
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ hit: ProbeAnswer | null; fingerprint: string | null }> {
  if (!keptIn) return { hit: null, fingerprint: null };
  const fingerprint = await pyenvFingerprint(command, env);
  if (!fingerprint) return { hit: null, fingerprint: null };
  const entry = (await readKept(keptIn))[key];
  return { hit: entry?.fingerprint === fingerprint ? entry.answer : null, fingerprint };
}

/** Keeps a successful answer under its fingerprint. A cache that cannot be written only makes the next start slower. */
export async function keepAnswer(key: string, fingerprint: string, answer: ProbeAnswer): Promise<void> {
  const file = keptIn;
  if (!file || !answer.ok) return;
  const all = await readKept(file);
  delete all[key];
  // Without endedAt: a later start's answer from here was not produced then (python-packages.ts).
  const kept = { ok: answer.ok, stdout: answer.stdout, stderr: answer.stderr };
  const entries = [...Object.entries(all), [key, { fingerprint, answer: kept }] as const].slice(-MAX_ENTRIES);
  try {
    // Into the data folder the app made at its start, never making it again (environment-snapshot.ts).
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(entries)), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch {
    /* next start asks the shim again */
  }
}

async function readKept(file: string): Promise<Record<string, Entry>> {
  // Never through a link, bounded: the file is ours, in a folder only the person and the app write.
  const read = await readBeneath(path.dirname(file), [path.basename(file)], MAX_BYTES);
  if (!read.ok) return {};
  try {
    const parsed = JSON.parse(read.bytes.toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const entries = Object.entries(parsed as Record<string, unknown>).filter(([, v]) => isEntry(v));
    return Object.fromEntries(entries) as Record<string, Entry>;
  } catch {
    return {};
  }
}

function isEntry(value: unknown): value is Entry {
  const e = value as Partial<Entry> | null;
  return (
    !!e &&
    typeof e.fingerprint === 'string' &&
    !!e.answer &&
    typeof e.answer.ok === 'boolean' &&
    typeof e.answer.stdout === 'string' &&
    typeof e.answer.stderr === 'string'
  );
}

/**
 * What pyenv reads to choose the interpreter behind `command`, as one string; null when `command` is
 * not a shim of the pyenv named by PYENV_ROOT (or ~/.pyenv), so nothing is kept for it.
 */
export async function pyenvFingerprint(command: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  // A shim names its pyenv itself (`export PYENV_ROOT="…"`), whatever the environment says.
  const shim = await readFile(command, 'utf8').catch(() => '');
  const root = shim.length < 4096 ? /^export PYENV_ROOT="([^"$`\\]+)"$/m.exec(shim)?.[1] : undefined;
  if (!root || !path.isAbsolute(root) || path.dirname(command) !== path.join(root, 'shims') || !shim.includes('libexec/pyenv" exec')) {
    return null;
  }
  // pyenv looks for .python-version from PYENV_DIR, else the folder it runs in (probes run from /).
  const from = env.PYENV_DIR && path.isAbsolute(env.PYENV_DIR) ? env.PYENV_DIR : path.parse(process.cwd()).root;
  const localFiles: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    localFiles.push(path.join(dir, '.python-version'));
    if (path.dirname(dir) === dir) break;
  }
  const contents = [path.join(root, 'version'), path.join(root, 'global'), path.join(root, 'default'), ...localFiles];
  const folders = ['versions', 'plugins', 'pyenv.d', 'libexec'].map((name) => path.join(root, name));
  const identities = [command, path.join(root, 'libexec', 'pyenv'), ...folders, ...contents];
  const vars = Object.entries(env)
    .filter(([name]) => name.startsWith('PYENV_') || name === 'BASH_ENV' || name === 'HOME' || name === 'PATH')
    .sort(([a], [b]) => a.localeCompare(b));
  const [ids, texts] = await Promise.all([Promise.all(identities.map(identity)), Promise.all(contents.map(smallText))]);
  return JSON.stringify({ root, shim, vars, ids, texts });
}

async function identity(file: string): Promise<string> {
  const st = await stat(file).catch(() => null);
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : '-';
}

async function smallText(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => null);
  return text === null ? '-' : text.slice(0, 4096);
}
