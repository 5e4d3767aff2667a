import type { RequestName } from '@contract';
import { AgentService, summaryOf } from './agent/agent-service';
import { EventBus } from './bridge/event-bus';
import type { HandlerTable } from './bridge/handler-table';
import { ConversationStore } from './conversations/conversation-store';
import type { ExecService } from './exec/types';
import { createProviderFactory, type KeySource } from './llm/provider-factory';
import type { SettingsStore } from './settings/settings-store';

export interface AppOptions {
  dataDir: string;
  settings: SettingsStore;
  /** Where provider keys come from (keychain, then environment). Never exposed to a handler's output. */
  keys: KeySource;
  exec: ExecService;
  version: string;
}

export interface App {
  handlers: HandlerTable;
  events: EventBus;
  agent: AgentService;
  dispose(): Promise<void>;
}

/** The composition root: builds the services and the one handler table both transports serve. */
export function createApp(opts: AppOptions): App {
  const events = new EventBus();
  const conversations = new ConversationStore(opts.dataDir, () => opts.settings.get().workspaceRoot);
  const agent = new AgentService({
    conversations,
    exec: opts.exec,
    events,
    settings: () => opts.settings.get(),
    providerFor: createProviderFactory(opts.keys),
  });

  const handlers: HandlerTable = {
    'app.info': async (_input, ctx) => ({ version: opts.version, platform: process.platform, transport: ctx.transport }),
    'conversation.create': async ({ title }) => {
      const conv = await conversations.create(title);
      events.emit('conversation.updated', { summary: summaryOf(conv) });
      return conv;
    },
    'conversation.list': async ({ query }) => conversations.list(query),
    'conversation.get': async ({ conversationId }) => agent.snapshot(conversationId),
    'chat.send': async ({ conversationId, text, attachments }) => {
      const item = await agent.send(conversationId, text, attachments ?? []);
      return { userItemId: item.id };
    },
    'chat.stop': async ({ conversationId }) => {
      agent.stop(conversationId);
      return { ok: true };
    },
    'cell.approve': async ({ conversationId, cellId, code, always }) => {
      agent.approve(conversationId, cellId, code ?? null, always ?? false);
      return { ok: true };
    },
    'cell.skip': async ({ conversationId, cellId }) => {
      agent.skip(conversationId, cellId);
      return { ok: true };
    },
    'cell.interrupt': async ({ conversationId, cellId }) => {
      agent.interruptCell(conversationId, cellId);
      return { ok: true };
    },
    'settings.get': async () => opts.settings.get(),
    'settings.set': async (patch) => opts.settings.update(patch),
  } satisfies { [N in RequestName]: HandlerTable[N] };

  return {
    handlers,
    events,
    agent,
    async dispose() {
      await agent.dispose();
      await opts.exec.dispose();
    },
  };
}
