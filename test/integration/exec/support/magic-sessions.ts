import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CellOutput, ExecSettings } from '@contract';
import { type Harness, type HarnessRun, startHarness, stdoutOf } from '../../../support/exec-harness';
import { SYSTEM_PYTHON } from '../../../support/jupyter-home';
import { buildWheel } from '../../../support/package-registries';
import { pathWithout } from '../../../support/path-without';

// Real Python sessions for the magics tests (ipython-magics.test.ts, magics-without-ipython.test.ts):
// three Pythons — a virtual environment that sees Debian's IPython, one that has no IPython at all,
// and Debian's Python told not to use its IPython (OI_IPYTHON=0; it has matplotlib, which the bare
// environment lacks) — each its own conversation, so its own session.

const run = promisify(execFile);

export interface Pythons {
  ipython: string;
  bare: string;
}

/**
 * The virtual environments of `uses` in `root` (a venv with ensurepip's pip costs about 4
 * CPU-seconds; each magics file uses one of the two). The paths of both, made or not.
 */
async function makeVenvs(root: string, uses: ReadonlyArray<keyof Pythons>): Promise<Pythons> {
  const folders = { ipython: path.join(root, 'with-ipython'), bare: path.join(root, 'bare') };
  const flags = { ipython: ['--system-site-packages'], bare: [] };
  await Promise.all(uses.map((who) => run(SYSTEM_PYTHON, ['-m', 'venv', ...flags[who], folders[who]])));
  return { ipython: path.join(folders.ipython, 'bin', 'python'), bare: path.join(folders.bare, 'bin', 'python') };
}

/** Each output's kind (stream name, error name, or MIME types), in order. */
export const kinds = (outputs: CellOutput[]): string[] =>
  outputs.map((o) =>
    o.output_type === 'stream'
      ? `stream:${o.name}`
      : o.output_type === 'error'
        ? `error:${o.ename}`
        : `${o.output_type}:${Object.keys(o.data).sort().join('+')}`,
  );
/** The text/plain of the execute_result, if any. */
export const resultText = (outputs: CellOutput[]): string | undefined => {
  const result = outputs.find((o) => o.output_type === 'execute_result');
  return result?.output_type === 'execute_result' ? (result.data['text/plain'] as string) : undefined;
};
/** The error output, if any. */
export const errorOf = (outputs: CellOutput[]) =>
  outputs.find((o): o is Extract<CellOutput, { output_type: 'error' }> => o.output_type === 'error');

/** A run in one Python's session; `conversation` names another session of that Python. */
export type SessionRun = (code: string, settings?: Partial<ExecSettings>, conversation?: string) => Promise<HarnessRun>;

/**
 * IPython's %%script prints "Couldn't find program: 'X'" and returns when X is not installed, so the
 * cell succeeds and Run All goes on. The program is missing for real: a PATH without it (ruby is
 * installed here, and runs with the usual PATH: the twin).
 */
export async function expectMissingProgramLikeIPython(session: SessionRun, tmpRoot: string, name: string): Promise<void> {
  const missing = await session('%%script no-such-program-here\nx');
  expect(missing.status, missing.forModel).toBe('done');
  expect(missing.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: "Couldn't find program: 'no-such-program-here'\n" }]);
  const noRuby = pathWithout(path.join(tmpRoot, `no-ruby-${name}`), ['ruby']);
  // A session of its own: a session keeps the environment it started with.
  const withoutRuby = await session('%%ruby\nputs 6 * 7', { env: { PATH: noRuby } }, 'no-ruby');
  expect(withoutRuby.status, withoutRuby.forModel).toBe('done');
  expect(stdoutOf(withoutRuby)).toBe("Couldn't find program: 'ruby'\n");
  expect(stdoutOf(await session('%%ruby\nputs 6 * 7'))).toBe('42\n');
}

export interface MagicSessions {
  /** The engine (set once the file's beforeAll has run). */
  readonly h: Harness;
  readonly pythons: Pythons;
  /** A run in the session of one Python. */
  inSession(who: 'ipython' | 'bare' | 'off'): SessionRun;
  /**
   * `%pip` in the session of `who` is its venv's own pip (the venv's folder in `pip --version`), and a
   * package it installs from a wheel (`module`, VALUE 42) imports in the next cell.
   */
  expectPipOfThisPython(who: keyof Pythons, module: string): Promise<void>;
}

/** The engine and the Pythons a file's tests use, made before them and closed after. */
export function useMagicSessions(uses: ReadonlyArray<keyof Pythons>): MagicSessions {
  let h: Harness | undefined;
  let pythons: Pythons | undefined;
  beforeAll(async () => {
    h = await startHarness();
    pythons = await makeVenvs(h.tmpRoot, uses);
  }, 300_000);
  afterAll(async () => {
    await h?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the magic sessions are made in beforeAll');
    return value;
  };
  const inSession =
    (who: 'ipython' | 'bare' | 'off'): SessionRun =>
    (code, settings = {}, conversation = '') => {
      if (who !== 'off' && !uses.includes(who)) throw new Error(`useMagicSessions was not given '${who}': its venv was not made`);
      const pythonPath = who === 'off' ? SYSTEM_PYTHON : ready(pythons)[who];
      const env: Record<string, string> = { ...(who === 'off' ? { OI_IPYTHON: '0' } : {}), ...settings.env };
      return ready(h).run('python', code, { conversationId: `magics-${who}${conversation}`, settings: { pythonPath, ...settings, env } });
    };
  return {
    get h() {
      return ready(h);
    },
    get pythons() {
      return ready(pythons);
    },
    inSession,
    async expectPipOfThisPython(who, module) {
      const session = inSession(who);
      const folder = path.basename(path.dirname(path.dirname(ready(pythons)[who])));
      expect(stdoutOf(await session('%pip --version'))).toMatch(new RegExp(`^pip \\d+.* from .*${folder}`, 'm'));
      const wheel = await buildWheel(path.join(ready(h).tmpRoot, 'wheels'), module, 42);
      const install = await session(`%pip install --no-index --quiet ${wheel}`, { timeoutMs: 120_000 });
      expect(install.status, install.forModel).toBe('done');
      expect((await session(`import ${module}\n${module}.VALUE`)).forModel).toBe('42');
    },
  };
}
