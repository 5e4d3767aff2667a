import { describe, expect, it } from 'vitest';
import type { CellOutput } from '@contract';
import { notebookSource } from '../../../src-main/core/exec/auto-install/install-record';
import { findMissingDependency } from '../../../src-main/core/exec/auto-install/missing-dependency';
import { npmPackageFor, pipPackageFor } from '../../../src-main/core/exec/auto-install/package-names';
import type { RunResult } from '../../../src-main/core/exec/engine/types';

function failed(outputs: CellOutput[], exitCode: number | null = null): RunResult {
  return {
    status: 'failed',
    exitCode,
    outputs,
    forModel: '',
    durationMs: 1,
    executionCount: 1,
    limits: { timeoutMs: 1000, memoryMb: null, cpuSeconds: null, maxProcesses: null, sandbox: null },
    cwd: null,
  };
}

const error = (ename: string, evalue: string): CellOutput => ({ output_type: 'error', ename, evalue, traceback: [] });
const text = (t: string): CellOutput => ({ output_type: 'stream', name: 'stdout', text: t });

describe('package names', () => {
  it('maps the well-known Python mismatches and leaves the rest alone', () => {
    expect(pipPackageFor('cv2')).toEqual({ package: 'opencv-python', wellKnown: true });
    const mismatches = {
      'PIL.Image': 'pillow',
      'sklearn.linear_model': 'scikit-learn',
      yaml: 'pyyaml',
      bs4: 'beautifulsoup4',
      'dateutil.parser': 'python-dateutil',
      'google.protobuf': 'protobuf',
    };
    for (const [module, pkg] of Object.entries(mismatches)) expect(pipPackageFor(module)?.package, module).toBe(pkg);
    expect(pipPackageFor('numpy')).toEqual({ package: 'numpy', wellKnown: true });
    expect(pipPackageFor('some_obscure_thing')).toEqual({ package: 'some_obscure_thing', wellKnown: false });
  });

  it('refuses names pip cannot help with', () => {
    expect(pipPackageFor('tkinter')).toBeNull();
    expect(pipPackageFor('_private')).toBeNull();
    expect(pipPackageFor('../evil')).toBeNull();
    expect(pipPackageFor('a b')).toBeNull();
  });

  it('finds the npm package behind a module specifier', () => {
    expect(npmPackageFor('lodash/fp')).toEqual({ package: 'lodash', wellKnown: true });
    expect(npmPackageFor('@anthropic-ai/sdk/resources')?.package).toBe('@anthropic-ai/sdk');
    expect(npmPackageFor('./local')).toBeNull();
    expect(npmPackageFor('/abs/path.js')).toBeNull();
    expect(npmPackageFor('node:fs')).toBeNull();
    expect(npmPackageFor('fs')).toBeNull();
    expect(npmPackageFor('file:../x')).toBeNull();
    expect(npmPackageFor('UPPER')).toBeNull();
  });
});

describe('recognizing a missing dependency', () => {
  it('reads Python ModuleNotFoundError from the error output only', () => {
    expect(findMissingDependency('python', failed([error('ModuleNotFoundError', "No module named 'cv2'")]))).toEqual({
      kind: 'python-module',
      module: 'cv2',
      reason: "ModuleNotFoundError: No module named 'cv2'",
    });
    expect(findMissingDependency('python', failed([text("No module named 'cv2'\n")]))).toBeNull();
    expect(findMissingDependency('python', failed([error('ImportError', "cannot import name 'x' from 'y'")]))).toBeNull();
    expect(
      findMissingDependency('python', { ...failed([error('ModuleNotFoundError', "No module named 'cv2'")]), status: 'done' }),
    ).toBeNull();
  });

  it('reads Node "Cannot find module" for CommonJS and ES modules', () => {
    expect(
      findMissingDependency('javascript', failed([error('Error', "Cannot find module 'left-pad'\nRequire stack:\n- /ws/x.js")])),
    ).toMatchObject({ kind: 'node-module', specifier: 'left-pad' });
    expect(
      findMissingDependency('javascript', failed([error('Error', "Cannot find package 'chalk' imported from /ws/x.mjs")])),
    ).toMatchObject({ specifier: 'chalk' });
  });

  it('reads a missing command from bash, zsh and dash, only with exit code 127', () => {
    expect(findMissingDependency('shell', failed([text('bash: line 1: jq: command not found\n')], 127))).toMatchObject({
      kind: 'command',
      command: 'jq',
    });
    expect(findMissingDependency('shell', failed([text('zsh: command not found: rg\n')], 127))).toMatchObject({ command: 'rg' });
    expect(findMissingDependency('shell', failed([text('sh: 1: ffmpeg: not found\n')], 127))).toMatchObject({ command: 'ffmpeg' });
    expect(findMissingDependency('shell', failed([text('bash: line 1: jq: command not found\n')], 1))).toBeNull();
  });
});

describe('install records in notebooks', () => {
  it('becomes the cell a person would have written', () => {
    const base = { command: 'x', target: null, createdVenv: null, ok: true, at: '2026-01-01T00:00:00Z' };
    expect(notebookSource({ ...base, manager: 'pip', packages: ['opencv-python'] })).toBe('%pip install opencv-python');
    expect(notebookSource({ ...base, manager: 'npm', packages: ['left-pad'] })).toBe('!npm install left-pad');
    expect(notebookSource({ ...base, manager: 'apt', packages: ['jq'], command: 'sudo apt-get install -y jq' })).toBe(
      '!sudo apt-get install -y jq',
    );
  });
});
