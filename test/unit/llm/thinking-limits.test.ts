import { defaultSettings, type Settings } from '@contract';
import { describe, expect, it } from 'vitest';
import { modelLimits, thinkingBudget, thinkingBudgetProblem } from '../../../src-main/core/llm/model-catalog';

const claude = (patch: Partial<Settings>): Settings => ({
  ...defaultSettings,
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  ...patch,
});

describe('thinking budget and output limits', () => {
  it('is off by default and for providers other than Anthropic', () => {
    expect(thinkingBudget(claude({}))).toBeNull();
    expect(thinkingBudget({ ...defaultSettings, model: 'o3', thinkingBudgetTokens: 4096 })).toBeNull();
    expect(thinkingBudgetProblem({ ...defaultSettings, model: 'gpt-4', thinkingBudgetTokens: 900_000 })).toBeNull();
    expect(modelLimits({ ...defaultSettings, model: 'gpt-4o', thinkingBudgetTokens: 4096 }).maxOutputTokens).toBe(8_192);
  });

  it('reserves the budget on top of the answer, within the model’s output limit', () => {
    expect(modelLimits(claude({ thinkingBudgetTokens: 4096 })).maxOutputTokens).toBe(4096 + 8192);
    expect(modelLimits(claude({ thinkingBudgetTokens: 60_000 })).maxOutputTokens).toBe(64_000);
    expect(modelLimits(claude({ thinkingBudgetTokens: 4096, maxOutputTokens: 5000 }))).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 5000,
      maxOutputTokensSet: true,
    });
    expect(thinkingBudget(claude({ thinkingBudgetTokens: 60_000 }))).toBe(60_000);
  });

  it('names the field when the budget is not below the ceiling, and lowers such a budget for a request', () => {
    expect(thinkingBudgetProblem(claude({ thinkingBudgetTokens: 63_999 }))).toBeNull();
    expect(thinkingBudgetProblem(claude({ thinkingBudgetTokens: 64_000 }))).toMatch(
      /^thinkingBudgetTokens: .*claude-sonnet-4-5 \(64000 tokens\)/,
    );
    expect(thinkingBudgetProblem(claude({ thinkingBudgetTokens: 2000, maxOutputTokens: 2000 }))).toMatch(
      /^thinkingBudgetTokens: .*maxOutputTokens = 2000/,
    );
    // A combination the settings check would refuse (a hand-edited file, `oi --model`) is clamped…
    expect(thinkingBudget(claude({ model: 'claude-opus-4-1', thinkingBudgetTokens: 40_000 }))).toBe(31_999);
    // …and dropped when even that would be below Anthropic's minimum.
    expect(thinkingBudget(claude({ thinkingBudgetTokens: 2000, maxOutputTokens: 1024 }))).toBeNull();
  });

  it('never asks a Claude model from before extended thinking (3.7) to think', () => {
    for (const model of ['claude-3-5-sonnet-latest', 'claude-3-5-haiku-20241022', 'claude-3-haiku-20240307', 'claude-3-opus-latest']) {
      expect(thinkingBudget(claude({ model, thinkingBudgetTokens: 2048 })), model).toBeNull();
      expect(thinkingBudgetProblem(claude({ model, thinkingBudgetTokens: 900_000 })), model).toBeNull();
    }
    for (const model of ['claude-3-7-sonnet-latest', 'claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-next-unknown']) {
      expect(thinkingBudget(claude({ model, thinkingBudgetTokens: 2048 })), model).toBe(2048);
    }
  });
});
