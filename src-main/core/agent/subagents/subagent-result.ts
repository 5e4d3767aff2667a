import type { Conversation, SubagentStatus, Usage } from '@contract';
import { formatUsd } from './subagent-estimate';

// What the parent's model reads as a `delegate` call's result: one line on how the sub-agent ended,
// then its final answer (or, when it did not finish, its last words), cut to settings.subagentResultChars
// with a note saying so. The parent never sees the sub-agent's intermediate outputs: that is what keeps
// its own context small.

export function resultForParent(
  name: string,
  conv: Conversation,
  status: SubagentStatus,
  maxChars: number,
  budgetNote: string | null,
): string {
  const items = conv.items;
  const cells = items.filter((i) => i.kind === 'cell');
  const failed = cells.filter((c) => c.kind === 'cell' && ['failed', 'timeout', 'died', 'unavailable'].includes(c.status)).length;
  const answer = [...items].reverse().find((i) => i.kind === 'assistant' && i.text.trim() !== '');
  const lastError = [...items].reverse().find((i) => i.kind === 'notice' && i.level === 'error');
  const ran = `${cells.length} cell${cells.length === 1 ? '' : 's'} run, ${failed} failed; ${spent(conv.usage)}`;
  const head: Record<SubagentStatus, string> = {
    done: `Sub-agent "${name}" finished (${ran}). Its answer:`,
    stopped: `Sub-agent "${name}" was stopped by the person before it finished (${ran}). What it had written so far:`,
    failed: `Sub-agent "${name}" failed${lastError?.kind === 'notice' ? `: ${lastError.text}` : ''} (${ran}). What it had written so far:`,
    budget: `Sub-agent "${name}" was stopped: ${budgetNote ?? 'its limit was reached'} (${ran}). What it had written so far:`,
    waiting: `Sub-agent "${name}" never started.`,
    running: `Sub-agent "${name}" is still running.`,
  };
  const text = answer?.kind === 'assistant' ? answer.text.trim() : '(nothing)';
  return `${head[status]}\n${bounded(text, maxChars)}`;
}

/** The answer cut to `max` characters, saying where and how much was left out. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… cut: the answer is ${text.length.toLocaleString('en-US')} characters and only the first ${max.toLocaleString('en-US')} are given here; the whole of it is in the sub-agent's conversation.]`;
}

export function spent(usage: Usage): string {
  return `${(usage.inputTokens + usage.outputTokens).toLocaleString('en-US')} tokens, ${formatUsd(usage.costUsd)}`;
}
