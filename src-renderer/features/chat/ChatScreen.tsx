import { useRef, useState, type DragEvent } from 'react';
import { useApp } from '../../state/app-store';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { WorkingIndicator } from './WorkingIndicator';
import { TaskListPanel } from '../plan/TaskListPanel';
import { ComputerBanner } from '../computer/ComputerBanner';
import { attachFiles } from '../common/upload';
import { takeNotebookDrops } from '../notebooks/notebook-actions';

/** The chat column; files dropped anywhere on it are attached to the next message. */
export function ChatScreen() {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');

  return (
    <div
      className="chat"
      data-testid="chat"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        // .ipynb files are offered for import (the notebook bar asks); the rest are attached.
        void attachFiles(takeNotebookDrops([...e.dataTransfer.files]));
      }}
    >
      <ComputerBanner />
      <TaskListPanel />
      <Conversation />
      <WorkingIndicator />
      <Composer />
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop files to copy them into this conversation’s attachments/ folder
        </div>
      )}
    </div>
  );
}

/**
 * The open conversation changes with every streamed token and output chunk: only this part follows
 * it, so the composer, the banner and the task list beside it do not re-render with each one.
 */
function Conversation() {
  const current = useApp((s) => s.current);
  return current && current.conv.items.length > 0 ? <MessageList view={current} /> : <EmptyConversation />;
}

function EmptyConversation() {
  const asks = useApp((s) => !s.settings?.autoRun && !s.current?.conv.autoRun);
  return (
    <div className="empty">
      <h2>What should be done?</h2>
      <p className="muted" data-testid="empty-how">
        {asks
          ? 'Describe a task. The agent writes code, asks before running it, shows the output and keeps going until it is done.'
          : 'Describe a task. The agent writes code and runs it without asking (auto-run is on), shows the output and keeps going until it is done.'}
      </p>
      <p className="muted small">
        Drop files here to work on them — they are copied into the conversation’s workspace; the originals stay untouched.
      </p>
    </div>
  );
}
