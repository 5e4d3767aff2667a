import type { AgentService } from '../core/agent/agent-service';

/** The folder a conversation works in, or null when there is no such conversation. */
export type WorkspaceLookup = (conversationId: string) => Promise<string | null>;

/**
 * What browser mode's download route asks: the same root the file panel's requests use (the open
 * conversation's, so a folder change is seen at once). `conversationId` must already be a valid Id.
 */
export function workspaceLookup(agent: Pick<AgentService, 'snapshot'>): WorkspaceLookup {
  return async (conversationId) => {
    try {
      return (await agent.snapshot(conversationId)).workspace;
    } catch (err) {
      // The store reports a missing conversation file as an error whose cause is the ENOENT.
      if (((err as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return null;
      throw err;
    }
  };
}
