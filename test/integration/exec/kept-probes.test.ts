import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { keepProbesIn } from '../../../src-main/core/exec/languages/kept-probes';
import { forgetLocalProbes, localProbing } from '../../../src-main/core/exec/languages/probing';

// A pyenv shim's probe is kept in the data folder across starts (kept-probes.ts), and asked again as
// soon as anything pyenv reads to choose the interpreter changes. The pyenv here is written for the
// test, in pyenv's own shim format: its `pyenv exec` logs each call and answers for the version its
// files or PYENV_VERSION choose. Each "start" forgets the process's own answers first.

describe('a pyenv shim’s probe kept across starts', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oi-kept-probes-'));
  const pyenv = path.join(root, 'pyenv');
  const shim = path.join(pyenv, 'shims', 'python3');
  const calls = path.join(root, 'calls');
  const dataDir = path.join(root, 'data');
  const cacheFile = path.join(dataDir, 'probe-cache.json');
  mkdirSync(path.join(pyenv, 'shims'), { recursive: true });
  mkdirSync(path.join(pyenv, 'libexec'));
  mkdirSync(path.join(pyenv, 'versions', '3.11.7'), { recursive: true });
  mkdirSync(dataDir);
  writeFileSync(
    shim,
    `#!/usr/bin/env bash\nset -e\nprogram="\${0##*/}"\n\nexport PYENV_ROOT="${pyenv}"\nexec "${pyenv}/libexec/pyenv" exec "$program" "$@"\n`,
  );
  writeFileSync(
    path.join(pyenv, 'libexec', 'pyenv'),
    `#!/usr/bin/env bash\necho call >> '${calls}'\nv="\${PYENV_VERSION:-$(cat "$PYENV_ROOT/version")}"\necho "$PYENV_ROOT/versions/$v/bin/python3"\necho "$v"\n`,
  );
  chmodSync(shim, 0o755);
  chmodSync(path.join(pyenv, 'libexec', 'pyenv'), 0o755);
  writeFileSync(path.join(pyenv, 'version'), '3.11.7\n');
  const PATH = `${path.join(pyenv, 'shims')}:/usr/bin:/bin`;
  const callCount = (): number => readFileSync(calls, 'utf8').split('\n').filter(Boolean).length;

  /** A new start: this process's answers forgotten, the kept ones (if any) still there. */
  const start = async (env: Record<string, string> = { PATH }): Promise<string> => {
    forgetLocalProbes();
    return (await localProbing(env).ask(shim, ['-I', '-c', 'probe'])).stdout.split('\n')[1] ?? '';
  };

  afterEach(() => keepProbesIn(null));
  afterAll(() => {
    forgetLocalProbes();
    rmSync(root, { recursive: true, force: true });
  });

  it('asks the shim once, and again when pyenv’s choice changes (its version file, PYENV_VERSION, an install)', async () => {
    keepProbesIn(cacheFile);
    expect(await start()).toBe('3.11.7');
    expect(await start()).toBe('3.11.7');
    expect(callCount()).toBe(1);
    // `pyenv global 3.12.1`
    mkdirSync(path.join(pyenv, 'versions', '3.12.1'));
    writeFileSync(path.join(pyenv, 'version'), '3.12.1\n');
    expect(await start()).toBe('3.12.1');
    expect(callCount()).toBe(2);
    // `pyenv shell 3.11.7`
    expect(await start({ PATH, PYENV_VERSION: '3.11.7' })).toBe('3.11.7');
    expect(callCount()).toBe(3);
    // `pyenv install 3.13.0` (what a version name resolves to may change)
    mkdirSync(path.join(pyenv, 'versions', '3.13.0'));
    expect(await start()).toBe('3.12.1');
    expect(callCount()).toBe(4);
    expect(await start()).toBe('3.12.1');
    expect(callCount()).toBe(4);
  });

  it('twin: with nowhere to keep answers, every start asks the shim', async () => {
    const before = callCount();
    await start();
    await start();
    expect(callCount()).toBe(before + 2);
  });

  it('does not follow a cache file that is a link, nor keep anything for a program that is not a pyenv shim', async () => {
    const planted = path.join(root, 'planted.json');
    const elsewhere = mkdtempSync(path.join(root, 'linked-'));
    writeFileSync(planted, readFileSync(cacheFile, 'utf8').replaceAll('3.12.1', '9.9.9'));
    symlinkSync(planted, path.join(elsewhere, 'probe-cache.json'));
    keepProbesIn(path.join(elsewhere, 'probe-cache.json'));
    const before = callCount();
    expect(await start()).toBe('3.12.1');
    expect(callCount()).toBe(before + 1);
    // A plain script is asked at every start, as before.
    const plain = path.join(root, 'plain-python3');
    writeFileSync(plain, `#!/bin/sh\necho plain >> '${calls}'\necho /usr/bin/python3\necho 3.0.0\n`);
    chmodSync(plain, 0o755);
    keepProbesIn(cacheFile);
    const ask = async () => {
      forgetLocalProbes();
      return localProbing({ PATH }).ask(plain, ['-I']);
    };
    const n = callCount();
    await ask();
    await ask();
    expect(callCount()).toBe(n + 2);
  });
});
