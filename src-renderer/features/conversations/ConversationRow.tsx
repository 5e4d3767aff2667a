import { memo, useState } from 'react';
import type { ConversationListEntry } from '@contract';
import { TITLE_MAX } from '@contract/limits';
import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { DeleteConfirm } from './DeleteConfirm';

/** One conversation in the list: open, rename in place, delete after a confirmation. */
interface RowProps {
  summary: ConversationListEntry;
  active: boolean;
  /** A sub-agent's conversation: the title of the conversation that started it (marked, docs/ui.md#sub-agents). */
  parentTitle: string | null;
}

export const ConversationRow = memo(function ConversationRow({ summary, active, parentTitle }: RowProps) {
  const open = useApp((s) => s.openConversation);
  const rename = useApp((s) => s.renameConversation);
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [title, setTitle] = useState(summary.title);

  if (mode === 'rename') {
    const commit = () => {
      if (title.trim() && title.trim() !== summary.title) void rename(summary.id, title.trim());
      setMode('view');
    };
    return (
      <li className="conv-row editing">
        <form
          className="inline-edit"
          onSubmit={(e) => {
            e.preventDefault();
            commit();
          }}
        >
          <input
            aria-label="Conversation title"
            value={title}
            maxLength={TITLE_MAX}
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => e.key === 'Escape' && setMode('view')}
          />
        </form>
      </li>
    );
  }
  if (mode === 'confirm-delete') return <DeleteConfirm summary={summary} onClose={() => setMode('view')} />;
  return (
    <li className={`conv-row${active ? ' active' : ''}`}>
      <button
        className="conv"
        aria-current={active ? 'true' : undefined}
        onClick={() => void open(summary.id)}
        title={`${summary.title}\n${summary.workspace}`}
      >
        <span className="conv-title">{summary.match?.text === summary.title ? <Marked match={summary.match} /> : summary.title}</span>
        {summary.match && summary.match.text !== summary.title && (
          <span className="conv-snippet" data-testid="search-snippet">
            <Marked match={summary.match} />
          </span>
        )}
        {summary.parent && parentTitle !== null && (
          <span className="conv-parent" data-testid="conv-parent">
            ↳ sub-agent {summary.parent.name} of {parentTitle}
          </span>
        )}
        <span className="conv-date">{shortDate(summary.updatedAt)}</span>
      </button>
      <span className="row-actions">
        <button
          className="icon-button"
          aria-label={`Rename ${summary.title}`}
          title="Rename"
          onClick={() => {
            setTitle(summary.title);
            setMode('rename');
          }}
        >
          <Icon name="edit" size={14} />
        </button>
        <button className="icon-button" aria-label={`Delete ${summary.title}`} title="Delete" onClick={() => setMode('confirm-delete')}>
          <Icon name="trash" size={14} />
        </button>
      </span>
    </li>
  );
}, sameRow);

/** The search's match in its excerpt, marked. */
function Marked({ match }: { match: NonNullable<ConversationListEntry['match']> }) {
  const { text, start, length } = match;
  return (
    <>
      {text.slice(0, start)}
      <mark>{text.slice(start, start + length)}</mark>
      {text.slice(start + length)}
    </>
  );
}

/** The list is fetched anew on every change, so rows compare by what they show, not by identity. */
function sameRow(a: RowProps, b: RowProps): boolean {
  const [x, y] = [a.summary, b.summary];
  const sameMatch = x.match?.text === y.match?.text && x.match?.start === y.match?.start && x.match?.length === y.match?.length;
  return (
    a.active === b.active &&
    a.parentTitle === b.parentTitle &&
    x.id === y.id &&
    x.title === y.title &&
    x.updatedAt === y.updatedAt &&
    x.workspace === y.workspace &&
    sameMatch
  );
}

// Formatters are built once: toLocale*String builds a new one per call, and the list re-renders on
// every save of a running conversation.
const TIME = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat([], { month: 'short', day: 'numeric' });

function shortDate(iso: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? TIME.format(d) : DAY.format(d);
}
