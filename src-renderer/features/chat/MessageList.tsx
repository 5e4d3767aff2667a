import { useEffect, useRef } from 'react';
import type { ConversationView } from '../../state/conversation-reducer';
import { CodeCell } from '../cells/CodeCell';
import { Markdown } from './Markdown';

export function MessageList({ view }: { view: ConversationView }) {
  const end = useRef<HTMLDivElement>(null);
  const items = view.conv.items;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [items, view.terminal]);

  return (
    <div className="messages" data-testid="messages" role="log" aria-live="polite">
      {items.map((item) => {
        switch (item.kind) {
          case 'user':
            return (
              <div key={item.id} className="msg msg-user" data-testid="user-message">
                {item.text}
              </div>
            );
          case 'assistant':
            return (
              <div key={item.id} className="msg msg-assistant" data-testid="assistant-message">
                <Markdown text={item.text} />
                {item.interrupted && <div className="interrupted">(interrupted)</div>}
              </div>
            );
          case 'cell':
            return <CodeCell key={item.id} cell={item} terminal={view.terminal[item.id]} />;
          case 'notice':
            return (
              <div key={item.id} className={`notice notice-${item.level}`} role="status">
                {item.text}
              </div>
            );
        }
      })}
      {view.busy && <div className="working" aria-label="The agent is working">working…</div>}
      <div ref={end} />
    </div>
  );
}
