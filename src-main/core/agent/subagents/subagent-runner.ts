import { errorMessage, type CellItem, type Settings, type SubagentInfo, type SubagentStatus, type UserItem } from '@contract';
import type { EventBus } from '../../bridge/event-bus';
import type { ConversationStore } from '../../conversations/conversation-store';
import { DELEGATE_LANGUAGE, DELEGATE_TOOL } from '../../llm/delegate-tool';
import { newId, now } from '../ids';
import { linkedAbort } from '../linked-abort';
import type { LiveConversation } from '../live-conversation';
import type { OpenConversations } from '../open-conversations';
import { finishCell } from '../turn-cell';
import { addItem, addNoticeItem, setAutoRun, setModelChoice } from '../conversation-changes';
import { parseDelegateArgs, type DelegateCall } from './delegate-args';
import { estimateSubagent, formatUsd } from './subagent-estimate';
import { resultForParent } from './subagent-result';
import { Slots } from './slots';
import { subagentPrompt } from './subagent-prompt';

export interface SubagentDeps {
  conversations: ConversationStore;
  open: OpenConversations;
  events: EventBus;
  /** The saved settings (providerModels: the endpoint of another provider). */
  settings: () => Settings;
  /** The same turn loop as any conversation's, with the same dependencies (provider factory, exec, checkpoints, hooks). */
  runTurn: (live: LiveConversation, signal: AbortSignal) => Promise<void>;
}

interface Started {
  cell: CellItem;
  call: DelegateCall;
  info: SubagentInfo;
  controller: AbortController | null;
}

/**
 * Runs the `delegate` calls of one model step (docs/agent.md#sub-agents): each becomes a conversation
 * of its own in the parent's folder, run by the ordinary turn loop, at most settings.subagentsAtOnce
 * at a time; what it spends counts against the parent's budget, and its bounded answer becomes the
 * call's result.
 */
export class Subagents {
  constructor(private readonly deps: SubagentDeps) {}

  /** Starts every delegate call among `calls`; each one's promise says whether it did not fail. */
  start(
    parent: LiveConversation,
    calls: ReadonlyArray<{ cell: CellItem; args: string | null; name: string }>,
    settings: Settings,
    signal: AbortSignal,
  ): Map<string, Promise<boolean>> {
    const results = new Map<string, Promise<boolean>>();
    const started: Started[] = [];
    for (const { cell, args, name } of calls) {
      if (name !== DELEGATE_TOOL || args === null) continue;
      cell.language = DELEGATE_LANGUAGE;
      cell.code = args;
      // In plan mode nothing may change the workspace before a plan is approved, and a sub-agent's
      // cells would run under its own conversation, outside the parent's read-only sandbox.
      const parsed = parent.subagent
        ? ({ ok: false, error: 'a sub-agent cannot start sub-agents of its own' } as const)
        : parent.conv.planMode
          ? ({ ok: false, error: 'in plan mode no sub-agent starts until the person approves a plan' } as const)
          : parseDelegateArgs(args, settings, this.deps.settings());
      if (!parsed.ok) {
        finishCell(parent, this.deps.events, cell, 'failed', `Error: ${parsed.error}`);
        results.set(cell.id, Promise.resolve(false));
        continue;
      }
      const { call } = parsed;
      const estimate = estimateSubagent(call.choice, call.task, settings);
      cell.status = 'running';
      cell.subagent = {
        conversationId: newId(),
        name: call.name,
        status: 'waiting',
        provider: call.choice.provider,
        model: call.choice.model,
        mayWrite: call.mayWrite,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        estimateUsd: estimate.usd,
      };
      started.push({ cell, call, info: cell.subagent, controller: null });
    }
    if (started.length === 0) return results;
    this.announce(parent, started, settings);
    const slots = new Slots(settings.subagentsAtOnce);
    const family = { started, budgetHit: false };
    for (const one of started) results.set(one.cell.id, this.runOne(parent, one, settings, signal, slots, family));
    return results;
  }

  /** Before any starts: each one's estimate and the total, as an event and a notice the person reads. */
  private announce(parent: LiveConversation, started: Started[], settings: Settings): void {
    const known = started.every((s) => s.info.estimateUsd !== null);
    const total = known ? started.reduce((sum, s) => sum + (s.info.estimateUsd ?? 0), 0) : null;
    const left = settings.budgetUsd === null ? null : Math.max(0, settings.budgetUsd - parent.conv.usage.costUsd);
    this.deps.events.emit('subagent.estimate', {
      conversationId: parent.conv.id,
      subagents: started.map((s) => ({ cellId: s.cell.id, name: s.info.name, model: s.info.model, estimateUsd: s.info.estimateUsd })),
      totalUsd: total,
      budgetLeftUsd: left,
    });
    const each = started.map((s) => `${s.info.name} (${s.info.model}) up to ${formatUsd(s.info.estimateUsd)}`).join(', ');
    const budget = left === null ? '' : ` The budget has ${formatUsd(left)} left; it covers them, and they stop when it is spent.`;
    const item = {
      kind: 'notice' as const,
      id: newId(),
      level: 'info' as const,
      text: `Starting ${started.length} sub-agent${started.length === 1 ? '' : 's'} (at most ${settings.subagentsAtOnce} at once, ${settings.subagentModelCalls} model calls each): ${each}. Estimated total: up to ${formatUsd(total)}.${budget}`,
      createdAt: now(),
    };
    addNoticeItem(parent.conv, this.deps.events, item);
  }

  private async runOne(
    parent: LiveConversation,
    one: Started,
    settings: Settings,
    signal: AbortSignal,
    slots: Slots,
    family: { started: Started[]; budgetHit: boolean },
  ): Promise<boolean> {
    const { info } = one;
    const release = await slots.take(signal);
    if (!release || family.budgetHit) {
      release?.();
      return this.finish(
        parent,
        one,
        family.budgetHit ? 'budget' : 'stopped',
        null,
        settings,
        'the conversation’s budget was spent before it started',
      );
    }
    let unsubscribe = (): void => undefined;
    parent.subagentsRunning++;
    try {
      const { live, task } = await this.openConversation(parent, one, settings);
      const { controller, release: unlink } = linkedAbort(signal);
      one.controller = controller;
      const watch = this.watchUsage(parent, one, settings, family);
      unsubscribe = watch.unsubscribe;
      // Running first, so a front end knows the sub-agent's conversation before its first event.
      info.status = 'running';
      this.update(parent, one);
      this.deps.events.emit('item.added', { conversationId: live.conv.id, item: task });
      const done = this.deps.runTurn(live, controller.signal);
      live.turn = { controller, done };
      await done.finally(() => {
        live.turn = null;
        unlink();
      });
      await this.deps.open.commit(live, true);
      const reason = watch.reason();
      const status = subagentStatus(reason, family.budgetHit);
      const note = family.budgetHit || reason === 'budget' ? budgetNote(live.conv) : null;
      return this.finish(parent, one, status, live.conv, settings, note);
    } catch (err) {
      return this.finish(parent, one, 'failed', null, settings, null, err);
    } finally {
      parent.subagentsRunning--;
      unsubscribe();
      release();
    }
  }

  /** The sub-agent's own conversation in the parent's folder, opened, with its task as the first message. */
  private async openConversation(
    parent: LiveConversation,
    one: Started,
    settings: Settings,
  ): Promise<{ live: LiveConversation; task: UserItem }> {
    const { cell, call, info } = one;
    const conv = await this.deps.conversations.create(`${call.name} (sub-agent)`, [], parent.conv.workspace);
    info.conversationId = conv.id;
    conv.parent = { conversationId: parent.conv.id, cellId: cell.id, name: call.name };
    setModelChoice(conv, this.deps.events, call.choice);
    setAutoRun(conv, this.deps.events, parent.conv.autoRun);
    await this.deps.conversations.save(conv);
    const live = await this.deps.open.open(conv.id);
    live.subagent = {
      name: call.name,
      // Read at every model call of the sub-agent: the parent's usage holds every sub-agent's spending.
      spentUsd: () => parent.conv.usage.costUsd,
      modelCalls: settings.subagentModelCalls,
      mayWrite: call.mayWrite,
    };
    const task: UserItem = { kind: 'user', id: newId(), text: subagentPrompt(call), attachments: [], createdAt: now() };
    addItem(live.conv, this.deps.events, task);
    return { live, task };
  }

  /**
   * Follows the sub-agent's events: its spending joins the parent's, so one budget covers them all (and
   * stops every sub-agent when it is spent); its turn's end reason is kept for its status.
   */
  private watchUsage(
    parent: LiveConversation,
    one: Started,
    settings: Settings,
    family: { started: Started[]; budgetHit: boolean },
  ): { unsubscribe: () => void; reason: () => string | null } {
    const { info } = one;
    let reason: string | null = null;
    let seen = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
    const unsubscribe = this.deps.events.subscribe((event) => {
      if (event.payload && 'conversationId' in event.payload && event.payload.conversationId !== info.conversationId) return;
      if (event.name === 'turn.end') reason = event.payload.reason;
      if (event.name !== 'usage.updated') return;
      const u = event.payload.usage;
      parent.conv.usage.inputTokens += u.inputTokens - seen.inputTokens;
      parent.conv.usage.outputTokens += u.outputTokens - seen.outputTokens;
      parent.conv.usage.costUsd += u.costUsd - seen.costUsd;
      seen = { ...u };
      info.usage = { ...u };
      this.update(parent, one);
      if (settings.budgetUsd !== null && parent.conv.usage.costUsd >= settings.budgetUsd) this.stopAll(family);
    });
    return { unsubscribe, reason: () => reason };
  }

  private finish(
    parent: LiveConversation,
    one: Started,
    status: SubagentStatus,
    conv: Parameters<typeof resultForParent>[1] | null,
    settings: Settings,
    note: string | null,
    err?: unknown,
  ): boolean {
    one.info.status = status;
    this.update(parent, one);
    const text = conv
      ? resultForParent(one.info.name, conv, status, settings.subagentResultChars, note)
      : err !== undefined
        ? `Sub-agent "${one.info.name}" could not start: ${errorMessage(err)}`
        : `Sub-agent "${one.info.name}" never started: ${note ?? 'the turn was stopped first'}.`;
    const cellStatus = status === 'done' ? 'done' : status === 'stopped' ? 'interrupted' : 'failed';
    finishCell(parent, this.deps.events, one.cell, cellStatus, text);
    return status !== 'failed';
  }

  private update(parent: LiveConversation, one: Started): void {
    this.deps.events.emit('subagent.updated', {
      conversationId: parent.conv.id,
      cellId: one.cell.id,
      subagent: { ...one.info, usage: { ...one.info.usage } },
    });
  }

  /** The budget is spent: every running sub-agent stops (its cell interrupted), and those waiting never start. */
  private stopAll(family: { started: Started[]; budgetHit: boolean }): void {
    family.budgetHit = true;
    for (const s of family.started) s.controller?.abort();
  }
}

/** A sub-agent's status from its turn's end reason; a spent budget wins over whatever the turn said. */
function subagentStatus(reason: string | null, budgetHit: boolean): SubagentStatus {
  if (budgetHit || reason === 'budget') return 'budget';
  if (reason === 'done' || reason === 'stopped') return reason;
  return 'failed';
}

function budgetNote(conv: { items: ReadonlyArray<{ kind: string; level?: string; text?: string }> }): string {
  const last = [...conv.items].reverse().find((i) => i.kind === 'notice' && i.level === 'warning');
  return last?.text ?? 'the conversation’s budget is spent';
}
