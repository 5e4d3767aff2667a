import { useEffect, useState } from 'react';
import type { ConversationSummary, WorkspaceInfo } from '@contract';
import { useApp } from '../../state/app-store';
import { shortPath, workspaceInfo } from '../../state/workspace-folder';

/**
 * "Delete this conversation?" in its row. The folder the app made for it may go too, when the user
 * ticks the box; a folder the user chose is never offered (main would refuse it anyway).
 */
export function DeleteConfirm({ summary, onClose }: { summary: ConversationSummary; onClose: () => void }) {
  const remove = useApp((s) => s.deleteConversation);
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [withFiles, setWithFiles] = useState(false);

  useEffect(() => {
    let shown = true;
    // Without the answer the box is simply not offered: deleting the conversation alone still works.
    workspaceInfo(summary.id).then(
      (found) => shown && setInfo(found),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, [summary.id]);

  const managed = info?.managed === true;
  return (
    <li className="conv-row confirm" role="group" aria-label={`Delete ${summary.title}?`}>
      <span className="small">
        Delete “{summary.title}”?{info && !managed ? ` Its folder ${shortPath(info.path)} stays.` : ''}
      </span>
      {managed && (
        <label className="small delete-files" title={info.path}>
          <input type="checkbox" checked={withFiles} onChange={(e) => setWithFiles(e.target.checked)} />
          Also delete its files ({filesText(info)} in {shortPath(info.path)})
        </label>
      )}
      <button className="small danger" onClick={() => void remove(summary.id, managed && withFiles).then(onClose)}>
        Delete
      </button>
      <button className="small" onClick={onClose} autoFocus>
        Cancel
      </button>
    </li>
  );
}

function filesText({ files, capped }: WorkspaceInfo): string {
  if (capped) return `more than ${files.toLocaleString()} files`;
  return files === 1 ? '1 file' : `${files.toLocaleString()} files`;
}
