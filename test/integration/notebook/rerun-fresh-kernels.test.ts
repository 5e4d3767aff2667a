import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kernelZygotePid, rerunNotebooks, rerunWorkFolder } from '../../support/rerun-worker';

// The export re-run check (test/support/notebook-rerun.ts) gets its kernels forked from a Python that
// has imported ipykernel and run nothing (test/support/kernel-zygote.py). What makes the check worth
// having is that each notebook starts from nothing, as `jupyter nbconvert --execute` starts it: a
// notebook that uses a name only an earlier notebook defined must fail.

const notebook = (...sources: string[]) =>
  JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: sources.map((source, index) => ({
      cell_type: 'code',
      id: `c${index}`,
      metadata: {},
      source,
      outputs: [],
      execution_count: null,
    })),
  });

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('the re-run check’s kernels', () => {
  const folder = path.join(rerunWorkFolder({}), 'fresh-kernels');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('are fresh for each notebook: a name or import only the notebook before had is not there, and no kernel is left', async () => {
    mkdirSync(folder, { recursive: true });
    const first = path.join(folder, 'first.ipynb');
    const second = path.join(folder, 'second.ipynb');
    writeFileSync(first, notebook('import json\nx = 41', 'print(json.dumps(x + 1))'));
    writeFileSync(second, notebook('print(x)'));
    const third = path.join(folder, 'third.ipynb');
    writeFileSync(third, notebook('print(json.dumps(1))'));
    const results = await rerunNotebooks<{ error: string | null; cells: Record<string, { outputs: Array<{ text?: string }> }> }>({}, [
      [first, folder],
      [second, folder],
      [third, folder],
    ]);
    expect(results[0]?.error).toBeNull();
    expect(results[0]?.cells.c1?.outputs[0]?.text).toBe('42\n');
    expect(results[1]?.error).toMatch(/NameError: name 'x' is not defined/);
    expect(results[2]?.error).toMatch(/NameError: name 'json' is not defined/);
    const zygote = kernelZygotePid({});
    expect(zygote).toBeGreaterThan(0);
    expect(childrenOf(zygote as number)).toEqual([]);
  });
});
