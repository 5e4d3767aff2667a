/**
 * What a sub-agent's own turn needs to know of the turn that started it (docs/agent.md#sub-agents):
 * held on its LiveConversation, absent on a top-level conversation.
 */
export interface SubagentScope {
  /** The sub-agent's name, as its parent gave it. */
  name: string;
  /** What the whole conversation has spent (the parent and all its sub-agents): the budget covers them all. */
  spentUsd(): number;
  /** The model calls this sub-agent may make (settings.subagentModelCalls). */
  modelCalls: number;
  /** Whether it may change the workspace; if not, what a cell changed there is put back. */
  mayWrite: boolean;
}
