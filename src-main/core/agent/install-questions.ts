import type { Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { InstallQuestion, InstallRecord, InstallRefusal } from '../exec';
import { askInstall, recordInstall } from './install-approval';
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
}

export class InstallQuestions {
  constructor(private readonly deps: InstallQuestionsDeps) {}

  ask(question: InstallQuestion): Promise<boolean | InstallRefusal> {
    return askInstall(this.deps.open.get(question.conversationId), this.deps.settings(), this.deps.events, question);
  }

  record(conversationId: string, record: InstallRecord): void {
    recordInstall(this.deps.open.get(conversationId), this.deps.events, record);
    this.deps.onInstalled(record.command);
  }
}
