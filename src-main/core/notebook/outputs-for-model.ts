import type { CellOutput } from '@contract';
import { HeadTail, splitBudget } from '../exec';
import { describeForModel } from '../exec';

// What the model is told about a run that happened outside the app (an imported notebook): the same
// text a live run of those outputs would give it (escape codes removed, rich data named rather than
// inlined), trimmed to head + tail by the same budget.

export function outputsForModel(outputs: readonly CellOutput[], maxChars: number): string {
  const budget = splitBudget(maxChars);
  const text = new HeadTail(budget.head, budget.tail);
  for (const output of outputs) {
    const part = describeForModel(output);
    if (part) text.push(part.endsWith('\n') ? part : `${part}\n`);
  }
  return text.render() || '(no output)';
}
