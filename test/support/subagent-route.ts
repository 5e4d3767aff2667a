import type { ScriptedLlm, ScriptedReply } from '../fixtures/llm-server';

/**
 * The scripted model's `onRequest` for a conversation with sub-agents: answers each sub-agent from its
 * own script, by the name in its first message, and the parent from `parent` — they ask at the same
 * time, so a shared queue would hand whoever asks first the reply meant for another. `llm()` is the
 * server (known once started).
 */
export function subagentRoute(
  scripts: Record<string, ScriptedReply[]>,
  llm: () => ScriptedLlm | undefined,
): (r: { body: unknown }) => void {
  return ({ body }) => {
    const text = JSON.stringify(body ?? '');
    if (!text.includes('"model"')) return;
    const name = Object.keys(scripts).find((n) => n !== 'parent' && text.includes(`You are the sub-agent \\"${n}\\"`)) ?? 'parent';
    const next = scripts[name]?.shift();
    if (next) llm()?.enqueue(next);
  };
}
