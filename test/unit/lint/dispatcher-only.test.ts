import { describe, expect, it } from 'vitest';
import { eslintRefusals } from './support/eslint-refusals';

// eslint.config.js's rule that every caller reaches core's handlers through the dispatcher (which
// checks the input against the contract first), run by ESLint itself on code written into real files.

const refusals = eslintRefusals((ruleId) => ruleId === 'no-restricted-syntax');

const DIRECT = "declare const app: { handlers: Record<string, () => void> };\napp.handlers['conversation.list']();\n";
const DESTRUCTURED = "declare const handlers: Record<string, () => void>;\nhandlers['keys.set']();\n";

describe('core is reached only through the dispatcher', () => {
  it.each(['src-main/cli/cli-run.ts', 'src-main/cli/key-check.ts', 'src-main/server/main.ts', 'src-main/core/app.ts'])(
    'refuses a handler called by name in %s',
    async (file) => {
      expect(await refusals(file, DIRECT)).toContain('no-restricted-syntax');
      expect(await refusals(file, DESTRUCTURED)).toContain('no-restricted-syntax');
    },
  );

  it('(twin) lets the dispatcher itself, and calls through it, pass', async () => {
    expect(await refusals('src-main/core/bridge/dispatch.ts', DIRECT)).toEqual([]);
    const through = "declare const request: (name: string, input: object) => void;\nrequest('conversation.list', {});\n";
    expect(await refusals('src-main/cli/cli-run.ts', through)).toEqual([]);
  });
});
