import { useEffect, useState, type ComponentType } from 'react';
import type { CellItem, ConversationItem, SubagentStatus, Usage } from '@contract';
import { delegateTask } from '@contract/subagent-use';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useSubagentThreads } from '../../state/subagent-threads';
import './subagents.css';

/** How the parent's rows are drawn, passed in so the thread reuses them without an import cycle. */
export type RowComponent = ComponentType<{ item: ConversationItem; isLastUser: boolean; isLast: boolean; busy: boolean; lastEnd: null }>;

const STATUS_WORDS: Record<SubagentStatus, string> = {
  waiting: 'waiting its turn',
  running: 'running',
  done: 'finished',
  failed: 'failed',
  stopped: 'stopped by you',
  budget: 'stopped: budget spent',
};

/**
 * A `delegate` call (docs/ui.md#sub-agents): the sub-agent's own conversation as a thread nested under
 * it, live while it runs and collapsible, with its Stop (that sub-agent alone; the parent reads its
 * result as stopped), its tokens and cost beside its estimate, and a way to open it as a conversation.
 */
export function SubagentThread({ cell, Row }: { cell: CellItem; Row: RowComponent }) {
  const info = cell.subagent;
  const { name, task } = delegateTask(cell.code);
  const live = info?.status === 'running' || info?.status === 'waiting';
  const [open, setOpen] = useState<boolean | null>(null);
  // Opens when it starts and stays open once finished (until collapsed); a finished one of a conversation
  // opened later starts collapsed.
  // (State adjusted while rendering, React's way to follow a prop.)
  if (live && open === null) setOpen(true);
  const expanded = open ?? live;
  const view = useSubagentThreads((s) => (info ? s.views[info.conversationId] : undefined));
  const load = useSubagentThreads((s) => s.load);
  const openConversation = useApp((s) => s.openConversation);
  const reportError = useApp((s) => s.reportError);
  useEffect(() => {
    // A finished sub-agent of a conversation opened later: its thread is read when first shown.
    if (expanded && info && !view) void load(info.conversationId);
  }, [expanded, info, view, load]);

  const label = info?.name ?? name;
  return (
    <section
      className="subagent"
      data-testid="subagent"
      data-name={label}
      data-status={info?.status ?? 'starting'}
      aria-label={`Sub-agent ${label}`}
    >
      <header className="subagent-head">
        <button className="link subagent-toggle" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
          {expanded ? '▾' : '▸'} Sub-agent <strong>{label || '…'}</strong>
        </button>
        <span className="subagent-state" data-testid="subagent-state">
          {info ? STATUS_WORDS[info.status] : cell.status === 'failed' ? 'not started' : 'starting'}
        </span>
        {info && (
          <span className="subagent-cost muted" data-testid="subagent-cost" title={`${info.provider} · ${info.model}`}>
            {spent(info.usage)}
            {info.estimateUsd !== null ? ` of ~${usd(info.estimateUsd)} estimated` : ' · price unknown'}
          </span>
        )}
        <span className="subagent-actions">
          {info && live && (
            <button
              className="small"
              aria-label={`Stop ${label}`}
              onClick={() => void bridge['chat.stop']({ conversationId: info.conversationId }).catch(reportError)}
            >
              Stop
            </button>
          )}
          {info && (
            <button
              className="small"
              aria-label={`Open ${label} as a conversation`}
              onClick={() => void openConversation(info.conversationId)}
            >
              Open as conversation
            </button>
          )}
        </span>
      </header>
      {!info && cell.status === 'failed' && cell.resultForModel && <p className="subagent-error">{cell.resultForModel}</p>}
      {expanded && (
        <div className="subagent-thread" data-testid="subagent-thread">
          {view ? (
            view.conv.items.map((item) => <Row key={item.id} item={item} isLastUser={false} isLast={false} busy lastEnd={null} />)
          ) : (
            <p className="muted">{task}</p>
          )}
        </div>
      )}
    </section>
  );
}

function usd(value: number): string {
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

function spent(usage: Usage): string {
  return `${(usage.inputTokens + usage.outputTokens).toLocaleString('en-US')} tokens · ${usd(usage.costUsd)}`;
}
