import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The lint tests run eslint.config.js's own rules through ESLint on code written as if it were a real
// file of the tree (its path decides which rules apply), and read which rules refused it.

export const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** The rules (kept by `keep`) that refuse `code` written as `file`, a path in the repository. */
export function eslintRefusals(keep: (ruleId: string) => boolean): (file: string, code: string) => Promise<string[]> {
  let eslint: ESLint | null = null;
  return async (file, code) => {
    // Types are not needed for these rules; without them ESLint does not build a TypeScript program.
    eslint ??= new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked], ruleFilter: ({ ruleId }) => keep(ruleId) });
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const messages = result?.messages ?? [];
    const broken = messages.filter((m) => m.fatal);
    if (broken.length > 0) throw new Error(`${file}: ${broken.map((m) => m.message).join('; ')}`);
    return messages.map((m) => m.ruleId ?? '');
  };
}
