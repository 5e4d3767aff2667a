import { useMemo } from 'react';
import { useWorkspace } from '../../state/workspace-store';
import { changedFolders, visibleRows } from './tree-model';
import { FileRow } from './FileRow';
import { Icon } from '../common/Icon';
import { WorkspaceFolder } from './WorkspaceFolder';

/** The conversation's workspace, updated live; what the last run changed is highlighted. */
export function FileTree() {
  const tree = useWorkspace((s) => s.tree);
  const treeError = useWorkspace((s) => s.treeError);
  const expanded = useWorkspace((s) => s.expanded);
  const changed = useWorkspace((s) => s.changed);
  const preview = useWorkspace((s) => s.preview);
  const conversationId = useWorkspace((s) => s.conversationId);
  const refresh = useWorkspace((s) => s.refresh);
  const reveal = useWorkspace((s) => s.reveal);
  const rows = useMemo(() => (tree ? visibleRows(tree.entries, expanded) : []), [tree, expanded]);
  const folders = useMemo(() => changedFolders(changed), [changed]);
  const selected = preview?.kind === 'file' ? preview.path : null;

  return (
    <section className="file-tree" aria-label="Files">
      <header className="panel-head">
        <h2>Files</h2>
        {changed.size > 0 && (
          <span className="badge badge-changed" title="Files the last run created or changed">
            {changed.size} changed
          </span>
        )}
        <span className="spacer" />
        <button
          className="icon-button"
          aria-label="Refresh the file list"
          title="Refresh"
          disabled={!conversationId}
          onClick={() => void refresh()}
        >
          <Icon name="refresh" size={14} />
        </button>
        <button
          className="icon-button"
          aria-label="Open the workspace in the file manager"
          title={tree?.root ?? 'Workspace'}
          disabled={!conversationId}
          onClick={() => void reveal()}
        >
          <Icon name="external" size={14} />
        </button>
      </header>
      <WorkspaceFolder />
      {treeError && (
        <div className="panel-error" role="alert">
          {treeError}
        </div>
      )}
      {!conversationId ? (
        <p className="muted small pad">Open or start a conversation to see its workspace.</p>
      ) : tree && tree.entries.length === 0 ? (
        <p className="muted small pad">The workspace is empty. Files the code writes appear here.</p>
      ) : (
        <ul className="tree" role="tree" aria-label="Workspace files" data-testid="file-tree">
          {rows.map((row) => (
            <FileRow
              key={row.entry.path}
              row={row}
              expanded={expanded.has(row.entry.path)}
              changed={changed.has(row.entry.path)}
              containsChanges={folders.has(row.entry.path)}
              selected={selected === row.entry.path}
            />
          ))}
        </ul>
      )}
      {tree?.truncated && <p className="muted small pad">Showing the first {tree.entries.length.toLocaleString()} entries.</p>}
    </section>
  );
}
