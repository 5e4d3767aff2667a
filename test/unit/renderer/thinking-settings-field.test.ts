import { defaultSettings, SettingsPatch } from '@contract';
import { describe, expect, it } from 'vitest';
import { display, parse, patchFor, valueAt } from '../../../src-renderer/features/settings/field-values';
import { settingsField } from '../../support/settings-field';

const field = settingsField;

describe('the thinking and reasoning settings fields', () => {
  it('shows thinking off as an empty box and reads a budget as a number', () => {
    const thinking = field('thinking');
    expect(thinking.kind).toBe('toggled-number');
    expect(display(thinking, valueAt(defaultSettings, thinking.path))).toBe('');
    expect(parse(thinking, '8,000')).toEqual({ ok: true, value: 8000 });
    expect(parse(thinking, '')).toEqual({ ok: false, error: 'a number is required (turn the switch off instead)' });
    expect(patchFor(thinking.path, 8000)).toEqual({ thinkingBudgetTokens: 8000 });
  });

  it('switches on to a budget the schema accepts, and the schema names the minimum for one it refuses', () => {
    const thinking = field('thinking');
    if (thinking.kind !== 'toggled-number') throw new Error('not a toggled number');
    expect(SettingsPatch.safeParse(patchFor(thinking.path, thinking.onValue)).success).toBe(true);
    const refused = SettingsPatch.safeParse(patchFor(thinking.path, 500));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("the thinking budget must be at least 1024 tokens (Anthropic's minimum)");
  });

  it('offers the model default (null, not sent) and the three reasoning efforts', () => {
    const effort = field('reasoningEffort');
    if (effort.kind !== 'select') throw new Error('not a select');
    expect(effort.options.map(([value]) => value)).toEqual(['', 'low', 'medium', 'high']);
    for (const [value] of effort.options)
      expect(SettingsPatch.safeParse(patchFor(effort.path, value === '' ? null : value)).success).toBe(true);
  });
});
