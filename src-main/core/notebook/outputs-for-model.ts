import type { CellOutput } from '@contract';
import { Outputs } from '../exec';
// What the model is told about a run that happened outside the app (an imported notebook): the same
// text a live run of those outputs would give it (escape codes removed, rich data named rather than
// inlined), trimmed to head + tail by the same budget.

export function outputsForModel(outputs: readonly CellOutput[], maxChars: number): string {
  const budget = Outputs.splitBudget(maxChars);
  const text = new Outputs.HeadTail(budget.head, budget.tail);
  for (const output of outputs) {
    const part = Outputs.describeForModel(output);
    if (part) text.push(part.endsWith('\n') ? part : `${part}\n`);
  }
  return text.render() || '(no output)';
}
