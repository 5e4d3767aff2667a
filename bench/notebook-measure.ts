// The notebook benchmark itself; run it through bench/notebook.bench.ts (which sets up @contract).
// Compares our .ipynb export and import with Python's nbformat (issue 8, item 5), side by side on
// this machine, on a 10,000-cell notebook (see notebook-fixture.ts).
//
// Like for like: nbformat.write validates, serializes and writes the file; ours builds the notebook
// from the conversation, holds it to our nbformat 4.5 schema, serializes and writes the file.
// nbformat.read parses and validates (and the issue adds an explicit nbformat.validate); ours reads the
// file, checks size and encoding, parses, validates with our reader schema and builds the
// conversation's items. Times are the best of N runs, after warm-up runs on our side (JIT) — the
// machine is shared, and the best run is the one least disturbed by others.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { exportNotebook, importNotebook, NotebookV4_5, serializeNotebook } from '../src-main/core/notebook/api';
import { notebookTextOf, readNotebookFile } from '../src-main/core/notebook/notebook-files';
import { benchConversation } from './notebook-fixture';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = process.env.OI_BENCH_PYTHON ?? '/usr/bin/python3';
const RUNS = Number(process.env.OI_BENCH_RUNS ?? 7);
const WARMUP = 2;
const META = { appVersion: 'bench', provider: 'openai', model: 'gpt-4.1' };
const TARGETS = { export: 0.3, import: 0.7 };

const NBFORMAT_DRIVER = String.raw`
import json, os, sys, time, nbformat
path, out_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def best(f):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1000)
    return min(times)

nb = nbformat.read(path, as_version=4)
def read_validate():
    nbformat.validate(nbformat.read(path, as_version=4))
result = {
    'version': nbformat.__version__,
    'validator': os.environ.get('NBFORMAT_VALIDATOR', 'fastjsonschema'),
    'writeMs': best(lambda: nbformat.write(nb, out_path)),
    'readValidateMs': best(read_validate),
    'readMs': best(lambda: nbformat.read(path, as_version=4)),
}
json.dump(result, sys.stdout)
`;

interface NbformatResult {
  version: string;
  validator: string;
  writeMs: number;
  readValidateMs: number;
  readMs: number;
}

function best(runs: number, f: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

async function bestAsync(runs: number, f: () => Promise<void>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

function runNbformat(dir: string, path: string): Promise<NbformatResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      PYTHON,
      ['-c', NBFORMAT_DRIVER, path, join(dir, 'nbformat-out.ipynb'), String(RUNS)],
      { maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`nbformat run failed (${PYTHON}; Debian: apt install python3-nbformat): ${stderr || err.message}`));
        else resolvePromise(JSON.parse(stdout) as NbformatResult);
      },
    );
  });
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'oi-bench-nb-'));
  try {
    const conv = benchConversation();
    const oursPath = join(dir, 'ours.ipynb');
    const { text, cells } = notebookTextOf(conv, META);
    await writeFile(oursPath, text);
    const bytes = Buffer.byteLength(text);
    console.log(
      `notebook bench: ${cells} cells, ${(bytes / 1024 / 1024).toFixed(1)} MB; node ${process.version}, python ${PYTHON}; best of ${RUNS}`,
    );

    // Export, whole and by stage.
    const exportFile = join(dir, 'ours-export.ipynb');
    const exportOnce = async () => {
      await writeFile(exportFile, notebookTextOf(conv, META).text);
    };
    for (let i = 0; i < WARMUP; i++) await exportOnce();
    const exportMs = await bestAsync(RUNS, exportOnce);
    const nb = exportNotebook(conv, META);
    const stages = {
      buildMs: best(RUNS, () => void exportNotebook(conv, META)),
      validateMs: best(RUNS, () => void NotebookV4_5.parse(nb)),
      serializeMs: best(RUNS, () => void serializeNotebook(nb)),
    };

    // Import: file → conversation items, validation included.
    const importOnce = async () => {
      const read = await readNotebookFile(oursPath, 512 * 1024 * 1024);
      const imported = importNotebook(read, { maxBytes: 512 * 1024 * 1024, fileName: 'bench.ipynb' });
      if (imported.conversationItems.length !== cells)
        throw new Error(`import gave ${imported.conversationItems.length} items for ${cells} cells`);
    };
    for (let i = 0; i < WARMUP; i++) await importOnce();
    const importMs = await bestAsync(RUNS, importOnce);

    const nbf = await runNbformat(dir, oursPath);
    const identical = (await readFile(join(dir, 'nbformat-out.ipynb'), 'utf8')) === text;

    const ratios = { export: exportMs / nbf.writeMs, import: importMs / nbf.readValidateMs, importVsReadOnly: importMs / nbf.readMs };
    const rows: string[][] = [
      ['measure', 'ours', 'nbformat', 'ratio', 'target', ''],
      [
        'export (build + validate + serialize + write)',
        ms(exportMs),
        ms(nbf.writeMs),
        ratios.export.toFixed(3),
        `≤ ${TARGETS.export}`,
        ratios.export <= TARGETS.export ? 'met' : 'MISSED',
      ],
      [
        'import (read + parse + validate + items)',
        ms(importMs),
        ms(nbf.readValidateMs),
        ratios.import.toFixed(3),
        `≤ ${TARGETS.import}`,
        ratios.import <= TARGETS.import ? 'met' : 'MISSED',
      ],
      ['import vs nbformat.read alone (validates once)', ms(importMs), ms(nbf.readMs), ratios.importVsReadOnly.toFixed(3), '', ''],
      ['  export stage: build notebook', ms(stages.buildMs), '', '', '', ''],
      ['  export stage: schema validation', ms(stages.validateMs), '', '', '', ''],
      ['  export stage: serialize', ms(stages.serializeMs), '', '', '', ''],
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const [i, row] of rows.entries()) {
      console.log(
        row
          .map((c, j) => c.padEnd(widths[j]!))
          .join('  ')
          .trimEnd(),
      );
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    console.log(`nbformat ${nbf.version} (${nbf.validator}); nbformat.write gives the same bytes as ours: ${identical ? 'yes' : 'NO'}`);

    const result = {
      date: new Date().toISOString(),
      machine: { platform: process.platform, arch: process.arch, node: process.version, python: PYTHON },
      notebook: { cells, bytes, markdownCells: cells / 2, codeCells: cells / 2, pngEveryNthCodeCell: 10 },
      runs: RUNS,
      ours: { exportMs, importMs, exportStages: stages },
      nbformat: nbf,
      ratios,
      targets: TARGETS,
      met: { export: ratios.export <= TARGETS.export, import: ratios.import <= TARGETS.import },
      sameBytesAsNbformat: identical,
    };
    await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results', 'notebook.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log('written bench/results/notebook.json');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
