import type { AnyEvent, CellOutput } from '@contract';
import { bridge } from '../bridge/bridge';
import { refreshConversationList, useApp } from './app-store';
import { FOLDED_EVENTS } from './conversation-reducer';
import { useComputer } from './computer-store';
import { useInputQuestions } from './input-questions';
import { useInstallQuestions } from './install-questions';
import { useNetworkQuestions } from './network-questions';
import { useMcpApprovals } from './mcp-approvals';
import { appendToFeed, resetFeed } from './terminal-feeds';
import { useSubagentThreads } from './subagent-threads';
import { useWorkspace } from './workspace-store';

/** The first image in an output, as the preview panel wants it. */
export function imageOf(output: CellOutput): { mime: string; dataBase64: string } | null {
  if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return null;
  for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
    const data = output.data[mime];
    if (typeof data === 'string') return { mime, dataBase64: data.replace(/\s+/g, '') };
  }
  return null;
}

/**
 * Routes main's events: conversation events through the pure reducer, terminal bytes to the feeds
 * (outside React), workspace changes to the file panel. Returns the unsubscribe.
 */
export function wireEvents(): () => void {
  const offs: Array<() => void> = [];
  const isCurrent = (conversationId: string) => useApp.getState().current?.conv.id === conversationId;

  for (const name of FOLDED_EVENTS) {
    offs.push(
      bridge.on(name, (payload) => {
        const event = { name, payload } as AnyEvent;
        useApp.getState().apply(event);
        useSubagentThreads.getState().apply(event);
      }),
    );
  }
  offs.push(
    bridge.on('subagent.updated', ({ conversationId, cellId, subagent }) =>
      useSubagentThreads.getState().announced(subagent, conversationId, cellId),
    ),
    bridge.on('cell.terminal', ({ cellId, data }) => appendToFeed(cellId, data)),
    bridge.on('cell.running', ({ conversationId, cellId }) => {
      resetFeed(cellId);
      if (isCurrent(conversationId)) useWorkspace.getState().runStarted();
    }),
    bridge.on('cell.done', ({ conversationId, cell }) => {
      useInputQuestions.getState().runEnded(cell.id);
      if (isCurrent(conversationId)) useWorkspace.getState().runEnded(cell.changes);
    }),
    bridge.on('cell.input-requested', (q) => useInputQuestions.getState().asked(q)),
    bridge.on('cell.input-closed', (p) => useInputQuestions.getState().closed(p)),
    bridge.on('cell.output', ({ conversationId, cellId, output }) => {
      const image = imageOf(output);
      if (!image || !isCurrent(conversationId)) return;
      // Plots open in the preview as they are made.
      void useWorkspace.getState().showPreview({ kind: 'output', cellId, title: 'Plot from the last run', ...image });
    }),
    bridge.on('install.awaiting-approval', (q) => useInstallQuestions.getState().asked(q)),
    bridge.on('install.answered', ({ questionId }) => useInstallQuestions.getState().answered(questionId)),
    bridge.on('network.awaiting-approval', (q) => useNetworkQuestions.getState().asked(q)),
    bridge.on('network.answered', ({ questionId }) => useNetworkQuestions.getState().answered(questionId)),
    bridge.on('settings.changed', ({ settings }) => useApp.setState({ settings })),
    bridge.on('computer.control', ({ conversationId, active }) => useComputer.getState().controlChanged(conversationId, active)),
    bridge.on('computer.action', (a) => useComputer.getState().actionTold(a)),
    bridge.on('mcp-approval.asked', (q) => useMcpApprovals.getState().asked(q)),
    bridge.on('mcp-approval.closed', ({ id }) => useMcpApprovals.getState().closed(id)),
    bridge.on('workspace.changed', ({ conversationId, paths }) => useWorkspace.getState().onChanged(conversationId, paths)),
    bridge.on('conversation.updated', () => void refreshConversationList().catch(() => undefined)),
    bridge.on('conversation.show', ({ conversationId }) => {
      void refreshConversationList()
        .then(() => useApp.getState().openConversation(conversationId))
        .catch((err: unknown) => useApp.getState().reportError(err));
    }),
    bridge.on('error', (p) => {
      if (p.conversationId === null || isCurrent(p.conversationId)) useApp.getState().reportError(new Error(p.message));
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
