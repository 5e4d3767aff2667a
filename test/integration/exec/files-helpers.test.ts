import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// The `files` helper each persistent language's runner gives code (oi_files.py, files.mjs,
// oi_files.rb, R's files) resolves paths the same way: relative paths land in the workspace whatever
// the cell's working folder; absolute and ~ paths are used as given (a convenience, not a boundary).

const INPUTS = ['a.txt', 'sub/../b.txt', '../outside.txt', '/etc/hostname', '~/x', '~', '.', 'a//b/'];

/** Code printing files.path(p) for every input, one a line, after moving the working folder away. */
const PATHS: Array<{ language: string; available: boolean; code: string }> = [
  {
    language: 'python',
    available: true,
    code: `import os, tempfile\nos.chdir(tempfile.gettempdir())\nprint("\\n".join(files.path(p) for p in ${JSON.stringify(INPUTS)}))`,
  },
  {
    language: 'javascript',
    available: true,
    code: `process.chdir((await import("node:os")).tmpdir());\nconsole.log(${JSON.stringify(INPUTS)}.map((p) => files.path(p)).join("\\n"));`,
  },
  {
    language: 'ruby',
    available: installed('ruby'),
    code: `require "tmpdir"\nDir.chdir(Dir.tmpdir)\nputs ${JSON.stringify(INPUTS)}.map { |p| files.path(p) }`,
  },
  {
    language: 'r',
    available: installed('Rscript'),
    code: `setwd(tempdir())\ncat(paste0(vapply(c(${INPUTS.map((p) => JSON.stringify(p)).join(', ')}), files$path, ""), "\\n"), sep = "")`,
  },
];

describe('files helpers', () => {
  const h = useHarness();

  it('resolve paths the same way in every language', async () => {
    const printed: Record<string, string> = {};
    for (const { language, code } of PATHS.filter((p) => p.available)) {
      const result = await h.run(language, code);
      expect(result.status, `${language}: ${result.forModel}`).toBe('done');
      printed[language] = stdoutOf(result);
    }
    const python = printed.python!;
    expect(python.split('\n').slice(0, 3)).toEqual([
      join(h.workspace, 'a.txt'),
      join(h.workspace, 'b.txt'),
      join(dirname(h.workspace), 'outside.txt'),
    ]);
    for (const [language, text] of Object.entries(printed)) expect(text, language).toBe(python);
    expect(Object.keys(printed).length).toBeGreaterThanOrEqual(2);
  });
});
