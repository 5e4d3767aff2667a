import type { KernelBindingMemory } from '../exec';
import type { AgentService } from './agent-service';

// A conversation's remote kernel binding lives in its own file (Conversation.remoteKernel), so it
// goes where the conversation goes and survives a restart. Reads and writes go through the agent,
// which holds the open copy that a running turn saves.

export function conversationKernelMemory(agent: Pick<AgentService, 'snapshot' | 'update'>): KernelBindingMemory {
  const exists = (conversationId: string): Promise<boolean> => agent.snapshot(conversationId).then(() => true, () => false);
  return {
    async load(conversationId) {
      const conv = await agent.snapshot(conversationId);
      return conv.remoteKernel ?? null;
    },
    async save(conversationId, binding) {
      // Requests may name a conversation that has no file (the CLI, tests); nothing to keep then.
      if (!(await exists(conversationId))) return false;
      await agent.update(conversationId, (conv) => {
        conv.remoteKernel = binding;
      });
      return true;
    },
  };
}
