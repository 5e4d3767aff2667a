import type { CellItem, HookEvent, NoticeItem } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { HookOutcome, HookRunner } from '../hooks/hook-runner';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { addNoticeItem } from './conversation-changes';

// Where a turn calls the person's hooks (docs/agent.md#hooks), and how what they said becomes
// notices in the conversation (shown in the app, printed by `oi`) and the cell's fate.

/** What hooks need of a conversation (a turn's open copy, or an `oi mcp` client's record). */
export type HookedConversation = Pick<LiveConversation, 'conv'>;

export interface TurnHookDeps {
  hooks?: HookRunner;
  events: EventBus;
}

/** Characters of a cell's result a hook is given after it ran (head and tail). */
export const HOOK_OUTPUT_CHARS = 4000;

/** Runs the event's hooks and adds their notices to the conversation; null when no hooks are set up here. */
export async function fireHooks(
  live: HookedConversation,
  deps: TurnHookDeps,
  event: HookEvent,
  subject: string | null,
  payload: Record<string, unknown>,
): Promise<HookOutcome | null> {
  if (!deps.hooks) return null;
  const profileHooks = 'profile' in live ? (live as Pick<LiveConversation, 'profile'>).profile?.hooks : null;
  const outcome = await deps.hooks.fire(
    event,
    { conversationId: live.conv.id, workspace: live.conv.workspace, profileHooks },
    subject,
    payload,
  );
  for (const notice of outcome.notices) {
    const item: NoticeItem = { kind: 'notice', id: newId(), level: notice.level, text: notice.text, createdAt: now() };
    addNoticeItem(live.conv, deps.events, item);
  }
  return outcome;
}

/** Before a cell: whether it may go on to approval (`run`), must be asked even with auto-run (`ask`), or is refused. */
export async function beforeCellHooks(
  live: HookedConversation,
  deps: TurnHookDeps,
  cell: CellItem,
): Promise<{ kind: 'run' | 'ask' } | { kind: 'deny'; reason: string }> {
  const outcome = await fireHooks(live, deps, 'beforeCell', cell.language, { cell: describeCell(cell) });
  if (!outcome || outcome.decision === 'allow') return { kind: 'run' };
  if (outcome.decision === 'ask') return { kind: 'ask' };
  return { kind: 'deny', reason: outcome.reason ?? 'no reason given' };
}

/**
 * The beforeCell hooks as a computer action's guard (computer-cell.ts): null to go on to the approval
 * (which every action gets anyway, so "ask" adds nothing), or what the model reads when a hook refused.
 */
export function hookGuard(live: HookedConversation, deps: TurnHookDeps): (cell: CellItem) => Promise<string | null> {
  return async (cell) => {
    const guard = await beforeCellHooks(live, deps, cell);
    return guard.kind === 'deny' ? refusedByHook(guard.reason) : null;
  };
}

/** What the model reads about a cell a hook refused. */
export function refusedByHook(reason: string): string {
  return `Not run: a hook the person set up refused this code. Its reason: ${reason}`;
}

/** After a cell has ended (ran, failed, was declined): its status and a bounded summary of what it gave. */
export async function afterCellHooks(live: HookedConversation, deps: TurnHookDeps, cell: CellItem): Promise<void> {
  await fireHooks(live, deps, 'afterCell', cell.language, {
    cell: { ...describeCell(cell), status: cell.status, exitCode: cell.exitCode ?? null, durationMs: cell.durationMs ?? null },
    output: headTail(cell.resultForModel ?? '', HOOK_OUTPUT_CHARS),
  });
}

/**
 * What the person is needed for: a cell's approval, input a program asks for, an install (a missing
 * package) or a host sandboxed code wants to reach. The event's subject, so a matcher can pick one.
 */
export type NeedsPersonFor = 'approval' | 'input' | 'install' | 'network';

/** The person is needed. Not waited for: the question is shown at once. */
export function needsPersonHooks(
  live: HookedConversation,
  deps: TurnHookDeps,
  what: NeedsPersonFor,
  detail: Record<string, unknown>,
): void {
  void fireHooks(live, deps, 'needsPerson', what, { waitingFor: what, ...detail }).catch(() => undefined);
}

export function describeCell(cell: CellItem): Record<string, unknown> {
  return { id: cell.id, language: cell.language, code: cell.code, ...(cell.mcp ? { mcp: cell.mcp } : {}) };
}

function headTail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const half = Math.floor(chars / 2);
  return `${text.slice(0, half)}\n[… ${text.length - chars} characters left out …]\n${text.slice(-half)}`;
}

/** The conversation's first message is being answered (nothing but notices before it). */
function isFirstTurn(live: HookedConversation): boolean {
  return live.conv.items.every((i) => i.kind === 'notice' || (i.kind === 'user' && i === live.conv.items.find((u) => u.kind === 'user')));
}

/** conversationStart: fired when the conversation's first message is being answered. */
export async function conversationStartHooks(live: HookedConversation, deps: TurnHookDeps): Promise<void> {
  if (isFirstTurn(live)) await fireHooks(live, deps, 'conversationStart', null, { title: live.conv.title });
}
