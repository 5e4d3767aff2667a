import { useState } from 'react';
import { useApp } from '../../state/app-store';
import { hasFolderDialog, moveWorkspace, pickFolder } from '../../state/workspace-folder';
import { plainMessage } from '../../state/plain-error';

/**
 * The folder the open conversation works in, under the file tree's header, with "Change folder…":
 * the OS folder dialog in the desktop app, a path field in browser mode (a page cannot browse the
 * machine's folders).
 */
export function WorkspaceFolder() {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const folder = useApp((s) => s.current?.conv.workspace ?? null);
  if (!conversationId || !folder) return null;
  // Keyed by conversation: a half-typed path or an error belongs to the conversation it was for.
  return <FolderBar key={conversationId} conversationId={conversationId} folder={folder} />;
}

function FolderBar({ conversationId, folder }: { conversationId: string; folder: string }) {
  const busy = useApp((s) => s.current?.busy ?? false);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const applyFolder = async (path: string) => {
    setSaving(true);
    setError(null);
    try {
      await moveWorkspace(conversationId, path);
      setTyping(false);
    } catch (err) {
      setError(plainMessage(err));
    } finally {
      setSaving(false);
    }
  };
  const change = async () => {
    setError(null);
    if (!hasFolderDialog()) {
      setTyped(folder);
      setTyping(true);
      return;
    }
    try {
      const picked = await pickFolder(conversationId);
      if (picked) await applyFolder(picked);
    } catch (err) {
      setError(plainMessage(err));
    }
  };

  return (
    <div className="workspace-folder" data-testid="workspace-folder">
      {typing ? (
        <form
          className="inline-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed.trim()) void applyFolder(typed.trim());
          }}
        >
          <input
            aria-label="Folder path"
            placeholder="Full path of an existing folder"
            value={typed}
            autoFocus
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setTyping(false)}
          />
          <button type="submit" className="small primary" disabled={saving || !typed.trim()}>
            Use folder
          </button>
          <button type="button" className="small" onClick={() => setTyping(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <span className="workspace-path small muted" title={folder} data-testid="workspace-path">
            <bdi>{folder}</bdi>
          </span>
          <button
            className="small"
            disabled={busy || saving}
            title={busy ? 'Stop the turn to change the folder' : 'Work in another folder'}
            onClick={() => void change()}
          >
            Change folder…
          </button>
        </>
      )}
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
