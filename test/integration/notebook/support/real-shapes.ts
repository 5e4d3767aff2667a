import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Jupyter } from '../../../support/jupyter';
import { Processes } from '../../../../src-main/core/exec';

// The notebooks of real shapes (test/fixtures/notebooks/real_shapes.py and the shape modules it
// imports), executed by a real kernel through nbconvert. Executing two dozen notebooks takes a minute
// on a loaded machine, and two test files need them: the result is kept in the temp folder under the
// hash of the generator and the Python that ran it, so a second file (or a re-run) reads it instead.
// A fresh machine generates.

const SHAPES_DIR = fileURLToPath(new URL('../../../fixtures/notebooks/', import.meta.url));
export const REAL_SHAPES_SCRIPT = path.join(SHAPES_DIR, 'real_shapes.py');
/** The generator and the modules it imports: the cache is keyed by all of their text. */
const SHAPES_FILES = ['real_shapes.py', 'shape_kit.py', 'shapes_outputs.py', 'shapes_documents.py'];
/** Runs the generator as a file beside its modules (`python -c` alone would not find them). */
const RUN_AS_FILE =
  'import runpy, sys; folder, script = sys.argv[1:3]; sys.path.insert(0, folder); sys.argv = [script, *sys.argv[3:]]; runpy.run_path(script, run_name="__main__")';

export async function realShapes(jupyter: Jupyter): Promise<Record<string, string>> {
  const text = SHAPES_FILES.map((name) => readFileSync(path.join(SHAPES_DIR, name), 'utf8')).join('\n');
  return cached(jupyter, text, () => jupyter.python(RUN_AS_FILE, '', [SHAPES_DIR, REAL_SHAPES_SCRIPT]));
}

/**
 * What `jupyter nbconvert --execute` makes of each of `notebooks` (real shapes, by name). Most shapes
 * are already that: real_shapes.py made them with nbconvert's ExecutePreprocessor in a fresh kernel
 * and changed nothing after (`--as-executed` names them), so running them again would make the same
 * notebook a second time (~1 CPU-second a kernel). Only the others (outputs edited after the run, or
 * never run) go through executedByNbconvert.
 */
export async function shapesExecutedByNbconvert(jupyter: Jupyter, notebooks: Record<string, string>): Promise<Record<string, string>> {
  const asExecuted = new Set(
    JSON.parse(await jupyter.python(RUN_AS_FILE, '', [SHAPES_DIR, REAL_SHAPES_SCRIPT, '--as-executed'])) as string[],
  );
  const rest = Object.fromEntries(Object.entries(notebooks).filter(([name]) => !asExecuted.has(name)));
  const executed = Object.keys(rest).length > 0 ? await executedByNbconvert(jupyter, rest) : {};
  return Object.fromEntries(Object.entries(notebooks).map(([name, text]) => [name, asExecuted.has(name) ? text : executed[name]!]));
}

/**
 * What `jupyter nbconvert --execute` makes of each notebook: nbconvert's ExecutePreprocessor (what
 * that command runs), a fresh kernel per notebook started in a folder of its own, no --allow-errors.
 * Cached like the shapes, by the notebooks' text.
 */
export async function executedByNbconvert(jupyter: Jupyter, notebooks: Record<string, string>): Promise<Record<string, string>> {
  const input = JSON.stringify(notebooks);
  const script = String.raw`
import json, sys, tempfile
import nbformat
from nbconvert.preprocessors import ExecutePreprocessor
out = {}
for name, text in json.load(sys.stdin).items():
    nb = nbformat.reads(text, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        ExecutePreprocessor(timeout=120, kernel_name="python3").preprocess(nb, {"metadata": {"path": folder}})
    out[name] = nbformat.writes(nb)
json.dump(out, sys.stdout)
`;
  return cached(jupyter, script + input, () => jupyter.python(script, input));
}

async function cached(jupyter: Jupyter, what: string, make: () => Promise<string>): Promise<Record<string, string>> {
  // The versions from the packages' metadata, without importing them: importing nbconvert, ipykernel
  // and IPython only to read their versions cost a Python about a CPU-second, on every call.
  const versions = await jupyter.pythonWithoutKernels(
    'import sys; from importlib.metadata import version; print(sys.version, *(version(p) for p in ("nbformat", "nbconvert", "ipykernel", "ipython")))',
  );
  const key = createHash('sha256').update(what).update(versions).digest('hex').slice(0, 16);
  const dir = path.join(tmpdir(), 'oi-test-real-shapes');
  const file = path.join(dir, `${key}.json`);
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  if (existsSync(file)) return read();
  mkdirSync(dir, { recursive: true });
  // Two test processes of one run often ask at once (lossless and rerun-like-jupyter both start with
  // the shapes): one makes them, the other waits for its file instead of executing them all again.
  const lock = `${file}.lock`;
  // Polled: the maker is another process, and its file (or its end) is the event waited for.
  while (!takeLock(lock)) {
    if (existsSync(file)) return read();
    await sleep(250);
  }
  try {
    if (existsSync(file)) return read();
    const made = JSON.parse(await make()) as Record<string, string>;
    // Written whole under a temp name, then renamed: a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(made));
    renameSync(temp, file);
    return made;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** True when this process now holds `lock` (a file with its pid); a lock whose process has gone is taken over. */
function takeLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const owner = readOwner(lock);
    // Empty for a moment while its maker writes the pid.
    if (owner > 0 && owner !== process.pid && !Processes.isAlive(owner)) rmSync(lock, { force: true });
    return false;
  }
}

/** The pid in `lock`; 0 when it is gone meanwhile (the next try may take it) or not written yet. */
function readOwner(lock: string): number {
  try {
    return Number(readFileSync(lock, 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * nbformat's field-by-field comparison of two notebooks, as Jupyter reads them (multiline text
 * joined): for each pair, the paths where they differ, with both values. One Python process.
 */
export async function notebookDifferences(jupyter: Jupyter, pairs: Array<[string, string]>): Promise<string[][]> {
  const out = await jupyter.pythonWithoutKernels(
    String.raw`
import json, sys, nbformat

def diff(a, b, path, found):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a:
                found.append(f"{path}.{key}: only in the export: {json.dumps(b[key])[:200]}")
            elif key not in b:
                found.append(f"{path}.{key}: missing from the export (was {json.dumps(a[key])[:200]})")
            else:
                diff(a[key], b[key], f"{path}.{key}", found)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            found.append(f"{path}: {len(a)} items became {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", found)
    elif a != b or type(a) is bool and type(b) is not bool:
        found.append(f"{path}: {json.dumps(a)[:200]} became {json.dumps(b)[:200]}")

results = []
for original, exported in json.load(sys.stdin):
    found = []
    diff(nbformat.reads(original, as_version=4), nbformat.reads(exported, as_version=4), "nb", found)
    results.append(found)
json.dump(results, sys.stdout)
`,
    JSON.stringify(pairs),
  );
  return JSON.parse(out) as string[][];
}
