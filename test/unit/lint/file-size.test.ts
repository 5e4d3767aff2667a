import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// Files stay under 400 lines (CONTRIBUTING.md): ESLint's max-lines holds the TypeScript and
// JavaScript, this test the runners' and scripts' files in the other languages ESLint cannot read.
// The files not yet cut below the cap are named with their size today, so none grows and none is added.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CAP = 400;
const NOT_YET_CUT: Record<string, number> = {
  'resources/runners/r/oi_files.R': 470,
  'resources/runners/r/oi_runner.R': 575,
};
const OTHER_LANGUAGES = /\.(py|R|rb|sh|zsh|ps1|bash)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}
const lineCount = (file: string): number => readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

describe('the 400-line cap', () => {
  it('holds every runner and script file in a language ESLint does not read', () => {
    const files = filesUnder('resources').filter((f) => OTHER_LANGUAGES.test(f));
    expect(files.filter((f) => f.endsWith('.R')).length).toBeGreaterThan(1);
    const over = files.filter((f) => lineCount(f) > (NOT_YET_CUT[f] ?? CAP)).map((f) => `${f}: ${lineCount(f)} lines`);
    expect(over).toEqual([]);
  });

  it('is ESLint’s for TypeScript and JavaScript: a file of 401 lines is refused, one of 400 passes', async () => {
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: [tseslint.configs.disableTypeChecked],
      ruleFilter: ({ ruleId }) => ruleId === 'max-lines',
    });
    const lines = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    const ruleIds = async (file: string, n: number): Promise<string[]> => {
      const [result] = await eslint.lintText(lines(n), { filePath: path.join(ROOT, file) });
      return (result?.messages ?? []).map((m) => m.ruleId ?? '');
    };
    for (const file of ['src-main/core/app.ts', 'test/unit/lint/file-size.test.ts', 'resources/runners/node/files.mjs']) {
      expect(await ruleIds(file, CAP + 1), file).toContain('max-lines');
      expect(await ruleIds(file, CAP), file).toEqual([]);
    }
  });
});
