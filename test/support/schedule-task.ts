import type { Schedule } from '@contract';
import type { ScriptedLlm } from '../fixtures/llm-server';

// The scheduled task the schedule tests write into their stores, with only what a test is about set.

/**
 * A task started by hand (`when: manual`), run in the app, unsandboxed, that reports its code rather
 * than running it, on $1 and 10 minutes, created now, named after its id, asked "report" of no model;
 * `fields` overrides any of these.
 */
export function manualTask(fields: Pick<Schedule, 'id' | 'workspace'> & Partial<Schedule>): Schedule {
  return {
    name: fields.id,
    prompt: 'report',
    model: null,
    when: { kind: 'manual' },
    policy: { sandbox: 'off', code: 'report', budgetUsd: 1, timeLimitMinutes: 10 },
    runner: 'in-app',
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

/** The scripted model server, over the OpenAI protocol, as a task's model. */
export const scriptedModel = (llm: ScriptedLlm): Schedule['model'] => ({ provider: 'openai', model: 'gpt-4o', baseUrl: llm.openaiBaseUrl });
