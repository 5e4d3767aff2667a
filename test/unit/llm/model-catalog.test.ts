import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { costOf, modelInfo, modelLimits } from '../../../src-main/core/llm/model-catalog';

describe('the model catalog', () => {
  it('matches the longest known prefix, dated and provider-prefixed names included', () => {
    expect(modelInfo('openai', 'gpt-4o-mini-2024-07-18').inputPerMTok).toBe(0.15);
    expect(modelInfo('openai', 'gpt-4o-2024-08-06').inputPerMTok).toBe(2.5);
    expect(modelInfo('openai-compatible', 'openai/gpt-4.1').contextWindow).toBe(1_047_576);
    expect(modelInfo('anthropic', 'claude-3-5-haiku-20241022')).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 8_192 });
  });

  it('prices local models at zero and leaves unknown hosted prices unknown', () => {
    expect(modelInfo('ollama', 'llama3.2:3b')).toMatchObject({ contextWindow: 8_192, inputPerMTok: 0 });
    expect(modelInfo('openai-compatible', 'mystery-model').inputPerMTok).toBeNull();
    expect(costOf(modelInfo('openai-compatible', 'mystery-model'), 1000, 1000)).toBeNull();
    expect(costOf(modelInfo('openai', 'gpt-4o'), 1_000_000, 100_000)).toBeCloseTo(3.5, 10);
  });

  it('lets settings override the window and the output limit', () => {
    expect(modelLimits({ ...defaultSettings, model: 'gpt-4o' })).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 8_192,
      maxOutputTokensSet: false,
    });
    expect(modelLimits({ ...defaultSettings, model: 'gpt-4o', contextWindow: 4096, maxOutputTokens: 300 })).toEqual({
      contextWindow: 4096,
      maxOutputTokens: 300,
      maxOutputTokensSet: true,
    });
    // Never reserve more than a quarter of a small window for the answer.
    expect(modelLimits({ ...defaultSettings, provider: 'ollama', model: 'x', contextWindow: 2048 }).maxOutputTokens).toBe(512);
  });
});
