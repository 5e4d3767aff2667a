import { useState } from 'react';
import type { Attachment, UserItem } from '@contract';
import { useApp } from '../../state/app-store';
import { useWorkspace } from '../../state/workspace-store';
import { CopyButton } from '../common/CopyButton';
import { Icon } from '../common/Icon';
import { formatBytes } from '../common/use-now';
import { useThumbnail } from './attachment-thumbnail';

export function UserMessage({ item, editable }: { item: UserItem; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.text);
  const editLast = useApp((s) => s.editLast);
  const showPreview = useWorkspace((s) => s.showPreview);

  const resend = async () => {
    const text = draft.trim();
    if (text && (await editLast(text))) setEditing(false);
  };

  return (
    <div className="msg msg-user" data-testid="user-message">
      {editing ? (
        <div className="inline-edit">
          <textarea
            aria-label="Edit your message"
            value={draft}
            autoFocus
            rows={Math.min(12, draft.split('\n').length + 1)}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(false);
              else if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void resend();
              }
            }}
          />
          <div className="row end">
            <button onClick={() => setEditing(false)}>Cancel</button>
            <button className="primary" onClick={() => void resend()}>
              Resend
            </button>
          </div>
        </div>
      ) : (
        item.text.trim() !== '' && <div className="msg-text">{item.text}</div>
      )}
      {item.attachments.length > 0 && (
        <ul className="msg-attachments" aria-label="Attachments">
          {item.attachments.map((a) => (
            <li key={a.path}>
              <AttachmentView attachment={a} onOpen={() => void showPreview({ kind: 'file', path: a.path })} />
            </li>
          ))}
        </ul>
      )}
      {!editing && (
        <div className="msg-actions">
          <CopyButton text={item.text} label="Copy message" className="small ghost" />
          {editable && (
            <button
              className="small ghost"
              title="Edit and resend this message"
              onClick={() => {
                setDraft(item.text);
                setEditing(true);
              }}
            >
              Edit
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** An image as a thumbnail, any other file as a chip; either opens in the preview. */
function AttachmentView({ attachment: a, onOpen }: { attachment: Attachment; onOpen(): void }) {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const thumbnail = useThumbnail(conversationId, a);
  if (thumbnail) {
    return (
      <button
        className="msg-thumb"
        onClick={onOpen}
        title={`${a.name} · ${formatBytes(a.size)} — show it in the preview`}
        data-testid="attachment-thumbnail"
      >
        <img src={thumbnail} alt={a.name} />
      </button>
    );
  }
  return (
    <button className="chip" onClick={onOpen} title={`Show ${a.path}`}>
      <Icon name="attach" size={14} /> {a.name} <span className="muted">{formatBytes(a.size)}</span>
    </button>
  );
}
