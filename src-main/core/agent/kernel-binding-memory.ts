import type { Kernels } from '../exec';
import type { OpenConversations } from './open-conversations';

// A conversation's remote kernel binding lives in its own file (Conversation.remoteKernel), so it
// goes where the conversation goes and survives a restart. Reads and writes go through the open
// conversations, which hold the copy that a running turn saves.

export function conversationKernelMemory(open: Pick<OpenConversations, 'snapshot' | 'update'>): Kernels.KernelBindingMemory {
  const exists = (conversationId: string): Promise<boolean> =>
    open.snapshot(conversationId).then(
      () => true,
      () => false,
    );
  return {
    async load(conversationId) {
      const conv = await open.snapshot(conversationId);
      return conv.remoteKernel ?? null;
    },
    async save(conversationId, binding) {
      // Requests may name a conversation that has no file (the CLI, tests); nothing to keep then.
      if (!(await exists(conversationId))) return false;
      await open.update(conversationId, (conv) => {
        conv.remoteKernel = binding;
      });
      return true;
    },
  };
}
