import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { python } from '../../../src-main/core/exec/languages/python';
import { localProbing } from '../../../src-main/core/exec/languages/probing';

// A version manager (pyenv, asdf) puts a shim first on PATH: a script that asks the manager which
// interpreter to run, costing hundreds of milliseconds per start. The app asks it once for the real
// executable and runs that from then on (languages/python.ts). The suite itself runs without the
// contributor's shims on PATH (test/support/test-path.ts), so this shim is written for the test.

describe('a version manager’s shim first on PATH', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oi-shim-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is asked once which interpreter it stands for; the app runs that interpreter, not the shim', async () => {
    const shims = path.join(root, 'shims');
    mkdirSync(shims);
    const log = path.join(root, 'calls');
    const shim = path.join(shims, 'python3');
    writeFileSync(shim, `#!/bin/sh\necho called >> '${log}'\nexec /usr/bin/python3 "$@"\n`);
    chmodSync(shim, 0o755);
    const PATH = `${shims}:/usr/bin:/bin`;
    const runtime = await python.detect({ workspace: null, settings: null, path: PATH, probing: localProbing({ PATH }) });
    expect(runtime).toMatchObject({ command: '/usr/bin/python3', version: expect.stringMatching(/^3\.\d+\.\d+$/) });
    // The shim ran for the question only.
    expect(readFileSync(log, 'utf8')).toBe('called\n');
  });
});
