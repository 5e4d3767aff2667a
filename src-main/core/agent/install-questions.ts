import type { Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { AutoInstall } from '../exec';
import { askInstall, recordInstall } from './install-approval';
import type { LiveConversation } from './live-conversation';
import type { OpenConversations } from './open-conversations';

// Where the engine's auto-installer asks before installing a missing package and reports an install
// that ran: in the conversation the run belongs to, like a cell approval. Built before the engine
// that asks and the agent that runs turns, from the open conversations both share.

export interface InstallQuestionsDeps {
  open: OpenConversations;
  settings: () => Settings;
  events: EventBus;
  /** An install ran: the model's picture of the machine (installed packages) is stale. */
  onInstalled: (command: string) => void;
  /** A question is shown to the person (the needsPerson hooks). */
  onAsking?: (live: LiveConversation, detail: Record<string, unknown>) => void;
}

export class InstallQuestions {
  constructor(private readonly deps: InstallQuestionsDeps) {}

  ask(question: AutoInstall.InstallQuestion): Promise<boolean | AutoInstall.InstallRefusal> {
    const live = this.deps.open.get(question.conversationId);
    const onAsking = this.deps.onAsking;
    const asking = live && onAsking ? () => onAsking(live, { install: installDetail(question) }) : undefined;
    return askInstall(live, this.deps.settings(), this.deps.events, question, asking);
  }

  record(conversationId: string, record: AutoInstall.InstallRecord): void {
    recordInstall(this.deps.open.get(conversationId), this.deps.events, record);
    this.deps.onInstalled(record.command);
  }
}

/** What a needsPerson hook is told of an install question. */
function installDetail(q: AutoInstall.InstallQuestion): Record<string, unknown> {
  return { kind: q.kind, packages: q.packages, command: q.command, reason: q.reason };
}
