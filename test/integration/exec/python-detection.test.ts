import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { languagesOf, pythonOf } from '../../../src-main/core/exec/engine/runtime-queries';
import { listPythonPackages } from '../../../src-main/core/exec/languages/python-packages';
import { forgetLocalProbes, localProbing, type Probing } from '../../../src-main/core/exec/languages/probing';

// A cold detection asks Python for its version (the prompt's languages) and for its packages at the
// same moment: one interpreter start answers both (python.ts lists the packages with the version). A
// later question about packages is asked afresh: the version's answer is kept for the process's life
// and may predate an install. The interpreter here is Debian's python3 behind a wrapper that logs each
// start; the probing calls the wrapper one sandboxed code could write, so the app keeps running the
// wrapper rather than the interpreter it names (python.ts: what such a program says is not believed).

describe('Python at a cold detection', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-python-detection-'));
  const wrapper = path.join(dir, 'python3');
  const starts = path.join(dir, 'starts');
  writeFileSync(wrapper, `#!/bin/sh\necho start >> '${starts}'\nexec /usr/bin/python3 "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeFileSync(starts, '');
  const started = (): number => readFileSync(starts, 'utf8').split('\n').filter(Boolean).length;
  const local = localProbing({ PATH: `${dir}:/usr/bin:/bin` });
  const probing: Probing = { ask: (command, args, options) => local.ask(command, args, options), writable: async (p) => p === wrapper };
  const detectContext = async () => ({ workspace: null, settings: null, path: `${dir}:/usr/bin:/bin`, probing });
  const scope = { workspace: dir, settings: { pythonPath: null, env: {} } } as unknown as Parameters<typeof pythonOf>[1];

  afterAll(() => {
    forgetLocalProbes();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the interpreter once for its version and its packages, and again for a later packages question', async () => {
    forgetLocalProbes();
    const [languages, python] = await Promise.all([languagesOf(detectContext, scope), pythonOf(detectContext, scope)]);
    expect(languages.find((l) => l.name === 'python')).toMatchObject({ available: true, version: expect.stringMatching(/^3\.\d+\.\d+$/) });
    expect(python?.command).toBe(wrapper);
    expect(started()).toBe(1);
    // The same list a question of its own gets (that question is a start of its own: the second).
    const listed = await listPythonPackages(wrapper, probing);
    expect(listed.length).toBeGreaterThan(0);
    expect(python?.packages).toEqual(listed);
    expect(started()).toBe(2);
    // Asked again later: the version's kept answer is older than the question, so the list is asked afresh.
    const again = await pythonOf(detectContext, scope);
    expect(again?.packages).toEqual(listed);
    expect(started()).toBe(3);
  });
});
