import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv } from '../../support/cli-process';
import { OI } from '../../support/oi-command';

// `oi` runs zod without its JIT (src-main/cli/zod-jitless.ts): zod decides when it builds an object
// schema whether that schema compiles a fast path (`new Function`) at its first parse, so the setting
// has to come before the modules that build the contract's schemas, not in the command once they are
// built (as it was: every object schema a run parsed compiled its own). A preload counts what is
// compiled from strings through the Function constructor while `oi --list` starts the app and reads
// the settings; the build before the fix compiled three there (six in a one-step `oi -m`).

const COUNT = `const Real = globalThis.Function; let n = 0;
globalThis.Function = new Proxy(Real, { construct: (t, a, nt) => (n++, Reflect.construct(t, a, nt)), apply: (t, self, a) => (n++, Reflect.apply(t, self, a)) });
process.on('exit', () => process.stderr.write('compiled from strings: ' + n + '\\n'));`;

describe('oi and zod’s JIT', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-zod-jitless-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles no code from strings while it starts and parses its settings', () => {
    const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(COUNT)}`, ...OI, '--list'], {
      cwd: dir,
      env: cliEnv(dir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stdout).toContain('No saved conversations.');
    expect(run.stderr).toContain('compiled from strings: 0');
  });
});
