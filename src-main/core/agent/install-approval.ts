import type { InstallInfo, NoticeItem, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { AutoInstall } from '../exec';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { addNoticeItem } from './conversation-changes';

const NEVER = new AbortController().signal;

/**
 * Asks the user before the engine installs a missing package, the way a cell is approved: auto-run
 * (settings, or "always run here") answers yes, except for system packages, which change the machine
 * and are always asked. A question ends with the turn or the re-run (stop = no), and waits at most the
 * run's time limit (settings.exec.timeoutMs): the run is held up meanwhile, and a "Re-run all" or a
 * turn nobody watches must not wait forever (Jupyter fails such a cell at once). No answer in that
 * time is a no, said as such to the model; so is a run with no conversation to ask in (`oi mcp`).
 */
export async function askInstall(
  live: LiveConversation | undefined,
  settings: Settings,
  events: EventBus,
  q: AutoInstall.InstallQuestion,
  onAsking?: () => void,
): Promise<boolean | AutoInstall.InstallRefusal> {
  // A run outside any open conversation (an `oi mcp` client's) has nobody to ask: that is not a no.
  if (!live)
    return {
      declined: `Nobody could be asked whether to run \`${q.command}\` (the run came from outside any conversation open in the app, such as an MCP client)`,
    };
  if (!q.alwaysAsk && (settings.autoRun || live.conv.autoRun)) return true;
  const questionId = newId();
  const conversationId = live.conv.id;
  const stop = live.runController?.signal ?? live.turn?.controller.signal ?? NEVER;
  const waitMs = settings.exec.timeoutMs;
  const timeUp = AbortSignal.timeout(waitMs);
  const answer = live.approvals.wait(questionId, AbortSignal.any([stop, timeUp]));
  events.emit('install.awaiting-approval', {
    conversationId,
    questionId,
    cellId: live.runningCellId,
    kind: q.kind,
    packages: q.packages,
    command: q.command,
    reason: q.reason,
    text: q.text,
  });
  onAsking?.();
  const decision = await answer;
  const install = decision.kind === 'run';
  events.emit('install.answered', { conversationId, questionId, install });
  if (!install && timeUp.aborted && !stop.aborted) {
    return { declined: `Nobody answered the question to run \`${q.command}\` within ${waitLabel(waitMs)} (the run's time limit)` };
  }
  return install;
}

function waitLabel(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
}

/** An install that ran joins the conversation as a notice, which notebook export turns into `%pip install`. */
export function recordInstall(live: LiveConversation | undefined, events: EventBus, record: AutoInstall.InstallRecord): void {
  if (!live) return;
  const install: InstallInfo = { manager: record.manager, packages: record.packages, command: record.command, ok: record.ok };
  const text = record.ok
    ? `Installed ${record.packages.join(', ')} (${record.command})${record.createdVenv ? `; created the virtual environment ${record.createdVenv}` : ''}.`
    : `Could not install ${record.packages.join(', ')} (${record.command}).`;
  const item: NoticeItem = { kind: 'notice', id: newId(), level: record.ok ? 'info' : 'warning', text, createdAt: now(), install };
  addNoticeItem(live.conv, events, item);
}
