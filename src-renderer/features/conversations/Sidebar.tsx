import { useEffect, useRef, useState } from 'react';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { isMac } from '../keyboard/platform';
import { ConversationRow } from './ConversationRow';
import { ScreenNav } from './ScreenNav';

const SEARCH_DELAY_MS = 200;

export function Sidebar() {
  const conversations = useApp((s) => s.conversations);
  const currentId = useApp((s) => s.current?.conv.id ?? null);
  const newConversation = useApp((s) => s.newConversation);
  const search = useApp((s) => s.search);
  const focusSearchSeq = useComposer((s) => s.focusSeq.search);
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusSearchSeq > 0) input.current?.focus();
  }, [focusSearchSeq]);
  useEffect(() => {
    // Not at mount (the store loads the list at start), nor for a query the list already answers.
    if (query.trim() === useApp.getState().query) return;
    const t = setTimeout(() => void search(query.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [query, search]);

  const mod = isMac() ? '⌘' : 'Ctrl+';
  return (
    <nav className="sidebar" aria-label="Conversations">
      <button className="primary new-conv" onClick={() => void newConversation()} title={`New conversation (${mod}N)`}>
        New conversation
      </button>
      <input
        ref={input}
        className="search"
        type="search"
        aria-label="Search conversations"
        placeholder={`Search (${mod}K)`}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQuery('');
        }}
      />
      <ul className="conv-list" data-testid="conversation-list">
        {conversations.map((c) => (
          <ConversationRow
            key={c.id}
            summary={c}
            active={c.id === currentId}
            parentTitle={c.parent ? (conversations.find((p) => p.id === c.parent?.conversationId)?.title ?? 'another conversation') : null}
          />
        ))}
        {conversations.length === 0 && <li className="muted small">{query ? 'No conversation matches.' : 'No conversations yet.'}</li>}
      </ul>
      <ScreenNav />
    </nav>
  );
}
