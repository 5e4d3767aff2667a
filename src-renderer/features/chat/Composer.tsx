import { useState, type KeyboardEvent } from 'react';
import { useApp } from '../../state/app-store';

export function Composer({ busy }: { busy: boolean }) {
  const [text, setText] = useState('');
  const { send, stop } = useApp();
  const submit = () => {
    const t = text.trim();
    if (!t) return;
    setText('');
    void send(t);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && busy) {
      void stop();
    }
  };
  return (
    <div className="composer">
      <textarea
        aria-label="Message"
        placeholder="Ask for something to be done… (Enter sends, Shift+Enter for a new line)"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        rows={3}
      />
      <div className="composer-actions">
        {busy && (
          <button onClick={() => void stop()} aria-label="Stop the agent">
            Stop
          </button>
        )}
        <button className="primary" onClick={submit} disabled={!text.trim()}>
          Send
        </button>
      </div>
    </div>
  );
}
