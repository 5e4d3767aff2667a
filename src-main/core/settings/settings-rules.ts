import type { Settings, SettingsPatch } from '@contract';
import { thinkingBudgetProblem } from '../llm/model-catalog';
import { pairingProblem } from '../llm/model-pairing';

/** The fields the thinking-budget rule reads: a patch touching none of them cannot break it. */
const THINKING_RULE_FIELDS = ['thinkingBudgetTokens', 'maxOutputTokens', 'provider', 'model'] as const;

/**
 * Rules that span several fields (and the model table), which the contract's per-field schema cannot
 * state. Returns the first problem, starting with the field's name, or null. Only a patch that touches
 * a rule's fields is held to it, so a combination that became invalid another way (a newer model table,
 * a hand-edited file) never blocks unrelated changes such as the theme; the request clamps it instead.
 */
export function patchProblem(next: Settings, patch: SettingsPatch): string | null {
  if (Object.hasOwn(patch, 'provider') || Object.hasOwn(patch, 'model') || Object.hasOwn(patch, 'baseUrl')) {
    const problem = pairingProblem(next);
    if (problem) return problem;
  }
  if (THINKING_RULE_FIELDS.some((field) => Object.hasOwn(patch, field))) return thinkingBudgetProblem(next);
  return null;
}
