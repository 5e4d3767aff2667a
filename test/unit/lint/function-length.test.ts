import { describe, expect, it } from 'vitest';
import { eslintRefusals } from './support/eslint-refusals';

// Core's functions stay short (eslint.config.js, LONG_CORE_FUNCTIONS for the few not yet cut): ESLint
// itself judges a function written into a real file of the tree.

const refusals = eslintRefusals((ruleId) => ruleId === 'max-lines-per-function');

/** A function of `lines` lines of code, with a blank and a comment line after each statement (not counted). */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  total += ${i};\n\n  // step ${i}`).join('\n');
  return `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
}

describe('core functions are at most 80 lines of code', () => {
  it('refuses an 82-line function in core, and lets 80 lines through', async () => {
    expect(await refusals('src-main/core/agent/turn.ts', functionOf(82))).toContain('max-lines-per-function');
    expect(await refusals('src-main/core/exec/engine/run-execution.ts', functionOf(80))).toEqual([]);
  });

  it("holds a listed file to its own function's length, not more", async () => {
    expect(await refusals('src-main/core/llm/computer-tool.ts', functionOf(81))).toEqual([]);
    expect(await refusals('src-main/core/llm/computer-tool.ts', functionOf(83))).toContain('max-lines-per-function');
  });

  it('leaves code outside core to its own reviewers', async () => {
    expect(await refusals('src-main/cli/cli-run.ts', functionOf(120))).toEqual([]);
  });
});
