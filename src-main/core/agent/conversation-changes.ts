import type { Conversation, ConversationItem, ModelChoice, NoticeItem, Task } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { now } from './ids';

// Every change to a conversation that an open window mirrors, each paired with the event that tells
// the window: one function per change, so no change is made without its event. The renderer folds
// the events in src-renderer/state/conversation-reducer.ts; test/integration/agent/events-fold.test.ts
// checks that the fold of a real turn's events is the conversation main saved. (A new event is a
// schema in contract/events.ts, its function here, and its case in the reducer: docs/agent.md.)
// Lint refuses a direct change anywhere else (eslint.config.js; test/unit/lint/conversation-changes-only.test.ts).

/** A message, assistant item or cell joins the conversation. Notices go through addNotice. */
export function addItem(conv: Conversation, events: EventBus, item: Exclude<ConversationItem, NoticeItem>): void {
  conv.items.push(item);
  events.emit('item.added', { conversationId: conv.id, item });
}

/**
 * History cut or rewritten at a person's request (edit, regenerate, undo, rewind). No event: the
 * window that asked loads the conversation again when the request answers (app-store.ts's
 * reloadAfterHistoryEdit, use-rewind.ts's reopen), and the commit that follows tells the list.
 */
export function rewriteHistory(conv: Conversation, items: ConversationItem[]): void {
  conv.items = items;
}

/** A notice joins the conversation (the UI and the CLI show it; the model never reads it). */
export function addNoticeItem(conv: Conversation, events: EventBus, item: NoticeItem): void {
  conv.items.push(item);
  events.emit('notice', { conversationId: conv.id, item });
}

export function setTitle(conv: Conversation, events: EventBus, title: string): void {
  conv.title = title;
  events.emit('conversation.changed', { conversationId: conv.id, change: { title } });
}

/** The provider and model the conversation talks to from its next model call on. */
export function setModelChoice(conv: Conversation, events: EventBus, modelChoice: ModelChoice): void {
  conv.modelChoice = modelChoice;
  events.emit('conversation.changed', { conversationId: conv.id, change: { modelChoice } });
}

/** The folder its code runs in from the next run on (the caller restarts its sessions there). */
export function setWorkspace(conv: Conversation, events: EventBus, workspace: string): void {
  conv.workspace = workspace;
  events.emit('conversation.changed', { conversationId: conv.id, change: { workspace } });
}

/** Its last activity is now: it moves up the list. */
export function touch(conv: Conversation, events: EventBus): void {
  conv.updatedAt = now();
  events.emit('conversation.changed', { conversationId: conv.id, change: { updatedAt: conv.updatedAt } });
}

export function setAutoRun(conv: Conversation, events: EventBus, autoRun: boolean): void {
  conv.autoRun = autoRun;
  events.emit('conversation.auto-run', { conversationId: conv.id, autoRun });
}

export function setPlanMode(conv: Conversation, events: EventBus, planMode: boolean): void {
  conv.planMode = planMode;
  events.emit('conversation.plan-mode', { conversationId: conv.id, planMode });
}

/** The task list, whole (the model's task tool, or an approved plan seeding it). */
export function setTasks(conv: Conversation, events: EventBus, tasks: Task[]): void {
  conv.tasks = tasks;
  events.emit('tasks.updated', { conversationId: conv.id, tasks });
}

export function setComputerUse(conv: Conversation, events: EventBus, on: boolean): void {
  conv.computerUse = on;
  events.emit('conversation.computer-use', { conversationId: conv.id, on });
}
