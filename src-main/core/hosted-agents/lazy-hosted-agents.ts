import type { LiveConversation } from '../agent/live-conversation';
import type { HostedAgents, HostedAgentsDeps } from './hosted-agents';

/**
 * The hosted agents (hosted-agents.ts) loaded with the first hosted turn rather than with the app: they
 * bring the ACP SDK and its zod schemas, which every start paid for (the desktop app, `oi`, `oi mcp`)
 * while only a conversation an outside agent answers uses them (docs/mcp.md#start-up).
 */
export class LazyHostedAgents {
  private loaded: Promise<HostedAgents> | null = null;

  constructor(private readonly deps: HostedAgentsDeps) {}

  async runTurn(live: LiveConversation, signal: AbortSignal): Promise<void> {
    return (await this.agents()).runTurn(live, signal);
  }

  /** Nothing was started when nothing was loaded. */
  async close(conversationId: string): Promise<void> {
    if (this.loaded) await (await this.loaded).close(conversationId);
  }

  async dispose(): Promise<void> {
    if (this.loaded) await (await this.loaded).dispose();
  }

  private agents(): Promise<HostedAgents> {
    this.loaded ??= import('./hosted-agents').then(({ HostedAgents }) => new HostedAgents(this.deps));
    return this.loaded;
  }
}
