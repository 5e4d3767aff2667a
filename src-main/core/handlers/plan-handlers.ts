import { PLAN_LANGUAGE } from '@contract';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';
import { setPlanMode } from '../agent/conversation-changes';

type PlanHandlers = Pick<HandlerTable, 'conversation.set-plan-mode' | 'plan.answer'>;

/** Plan mode's switch and the person's answer to a proposed plan (docs/agent.md#plan-mode). */
export const planHandlers = ({ agent, events }: Pick<AppContext, 'agent' | 'events'>): PlanHandlers => ({
  'conversation.set-plan-mode': async ({ conversationId, planMode }) => {
    // Through the open copy, so a running turn's next cell already runs as the switch says.
    await agent.update(conversationId, (conv) => setPlanMode(conv, events, planMode));
    return { ok: true };
  },
  'plan.answer': async ({ conversationId, cellId, approve, steps, reason }) => {
    const conv = await agent.snapshot(conversationId);
    const cell = conv.items.find((item) => item.kind === 'cell' && item.id === cellId);
    // Only a plan: an answer here must never approve a code cell (with "steps" as its code).
    if (!cell || cell.kind !== 'cell' || cell.language !== PLAN_LANGUAGE || cell.status !== 'awaiting-approval')
      throw new Error(`cell ${cellId} is not a plan waiting for an answer`);
    if (approve) agent.approve(conversationId, cellId, steps ? JSON.stringify({ steps }) : null, false);
    else agent.rejectPlan(conversationId, cellId, reason ?? '');
    return { ok: true };
  },
});
