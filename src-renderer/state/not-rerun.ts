import { create } from 'zustand';

/**
 * Per conversation, the cells the last "Re-run all" did not reach (it stopped, was stopped or failed
 * first): what they show is from before, and their header says so. Kept by the notebook bar's store,
 * read by the cells (which come before the notebooks among the features).
 */
export const useNotRerun = create<{ byConversation: Record<string, readonly string[]> }>(() => ({ byConversation: {} }));

export function setNotRerun(conversationId: string, cellIds: readonly string[]): void {
  const byConversation = { ...useNotRerun.getState().byConversation };
  if (cellIds.length > 0) byConversation[conversationId] = cellIds;
  else delete byConversation[conversationId];
  useNotRerun.setState({ byConversation });
}
