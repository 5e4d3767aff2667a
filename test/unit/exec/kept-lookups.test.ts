import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { which } from '../../../src-main/core/exec/languages/find-runtime';
import { forgetLookups, keptUnchecked, setLookupClock } from '../../../src-main/core/exec/languages/kept-lookups';
import { python } from '../../../src-main/core/exec/languages/python';
import { localProbing } from '../../../src-main/core/exec/languages/probing';

// Real folders and programs: a PATH of three folders, the program found in the last one.
const root = mkdtempSync(join(tmpdir(), 'oi-kept-lookups-'));
let n = 0;
let dirs: string[] = [];
let path = '';
/** The wall clock just before this test's files were made. */
let madeAt = 0;

function fakePython(file: string, says: string): void {
  writeFileSync(file, `#!/bin/sh\necho ${says}\necho 3.11.${n}\n`, { mode: 0o755 });
}

beforeEach(() => {
  n += 1;
  madeAt = Date.now();
  dirs = ['a', 'b', 'c'].map((d) => join(root, `${n}`, d));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  path = dirs.join(delimiter);
  fakePython(join(dirs[2]!, 'python3'), join(dirs[2]!, 'python3'));
  forgetLookups();
  // Everything here was made this instant: look as if the identities had settled (kept-lookups.ts),
  // and keep the walk however long a loaded machine's thread pool makes it.
  setLookupClock(() => Date.now() + 1_000, Infinity);
});
afterEach(() => setLookupClock());
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('kept PATH lookups', () => {
  it('a python3 put earlier on PATH counts at the very next lookup', async () => {
    expect(await which('python3', path)).toBe(join(dirs[2]!, 'python3'));
    expect(keptUnchecked('python3', path)).toBe(join(dirs[2]!, 'python3'));
    fakePython(join(dirs[0]!, 'python3'), 'earlier');
    // The twin: what was kept, without its identities checked, is the stale answer.
    expect(keptUnchecked('python3', path)).toBe(join(dirs[2]!, 'python3'));
    expect(await which('python3', path)).toBe(join(dirs[0]!, 'python3'));
  });

  it('an earlier candidate made executable counts, and so does the hit removed or relinked', async () => {
    writeFileSync(join(dirs[1]!, 'python3'), '#!/bin/sh\n', { mode: 0o644 });
    expect(await which('python3', path)).toBe(join(dirs[2]!, 'python3'));
    chmodSync(join(dirs[1]!, 'python3'), 0o755);
    expect(keptUnchecked('python3', path)).toBe(join(dirs[2]!, 'python3'));
    expect(await which('python3', path)).toBe(join(dirs[1]!, 'python3'));
    unlinkSync(join(dirs[1]!, 'python3'));
    expect(await which('python3', path)).toBe(join(dirs[2]!, 'python3'));
    // The hit a link retargeted to a program that is not executable: no longer found there.
    const hit = join(dirs[2]!, 'python3');
    writeFileSync(join(root, `${n}`, 'plain'), 'x', { mode: 0o644 });
    unlinkSync(hit);
    symlinkSync(join(root, `${n}`, 'plain'), hit);
    expect(await which('python3', path)).toBeNull();
  });

  it('a folder created where PATH named none counts', async () => {
    const missing = join(root, `${n}`, 'later');
    const withMissing = [missing, ...dirs].join(delimiter);
    expect(await which('python3', withMissing)).toBe(join(dirs[2]!, 'python3'));
    mkdirSync(missing);
    fakePython(join(missing, 'python3'), 'later');
    expect(await which('python3', withMissing)).toBe(join(missing, 'python3'));
  });

  it('keeps nothing that changed within the last clock ticks', async () => {
    // Looked at as if in the same clock tick the files were made in, however slow the machine.
    setLookupClock(() => madeAt, Infinity);
    expect(await which('python3', path)).toBe(join(dirs[2]!, 'python3'));
    expect(keptUnchecked('python3', path)).toBeUndefined();
  });

  it("a .venv made by the last cell is the next run's interpreter, the PATH lookup kept or not", async () => {
    const workspace = join(root, `${n}`, 'ws');
    mkdirSync(workspace);
    const probing = localProbing({ PATH: path });
    const first = await python.detect({ workspace, settings: null, path, probing });
    expect(first?.command).toBe(join(dirs[2]!, 'python3'));
    expect(keptUnchecked('python3', path)).toBe(join(dirs[2]!, 'python3'));
    mkdirSync(join(workspace, '.venv', 'bin'), { recursive: true });
    const venv = join(workspace, '.venv', 'bin', 'python');
    fakePython(venv, venv);
    const next = await python.detect({ workspace, settings: null, path, probing });
    expect(next?.command).toBe(venv);
  });
});
