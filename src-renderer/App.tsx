import { useEffect } from 'react';
import { useApp } from './state/app-store';
import { Composer } from './features/chat/Composer';
import { MessageList } from './features/chat/MessageList';
import { TopBar } from './features/chat/TopBar';
import { Sidebar } from './features/conversations/Sidebar';

export function App() {
  const { current, error, init, dismissError } = useApp();
  useEffect(() => {
    void init();
  }, [init]);

  return (
    <div className="app">
      <Sidebar />
      <main className="main">
        <TopBar />
        {error && (
          <div className="error-banner" role="alert">
            {error}
            <button className="small" onClick={dismissError} aria-label="Dismiss">
              ×
            </button>
          </div>
        )}
        {current ? (
          <MessageList view={current} />
        ) : (
          <div className="empty">Start a conversation: describe a task, and the agent writes and runs code for it.</div>
        )}
        <Composer busy={current?.busy ?? false} />
      </main>
    </div>
  );
}
