import { memo, useState } from 'react';
import { useComposer } from '../../state/composer-store';
import { useWorkspace } from '../../state/workspace-store';
import { Icon, type IconName } from '../common/Icon';
import { downloadWorkspaceFile } from '../common/download';
import { formatBytes } from '../common/use-now';
import { canOpenWith, openWithLabel, openWithOtherApp } from './open-with';
import type { TreeRow } from './tree-model';

interface Props {
  row: TreeRow;
  expanded: boolean;
  changed: boolean;
  containsChanges: boolean;
  selected: boolean;
}

/**
 * One file or folder: open/preview on click; insert path, download and (desktop) open in another app
 * (files), rename and delete (with confirmation).
 */
export const FileRow = memo(function FileRow({ row, expanded, changed, containsChanges, selected }: Props) {
  const { entry, name, depth } = row;
  const isDir = entry.kind === 'dir';
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [newName, setNewName] = useState(name);

  const activate = () => {
    const ws = useWorkspace.getState();
    if (isDir) ws.toggle(entry.path);
    else void ws.showPreview({ kind: 'file', path: entry.path });
  };
  const commitRename = async () => {
    const trimmed = newName.trim();
    if (!trimmed || trimmed === name) return setMode('view');
    const parent = entry.path.slice(0, entry.path.length - name.length);
    if (await useWorkspace.getState().rename(entry.path, parent + trimmed)) setMode('view');
  };

  const classes = ['tree-row', changed && 'changed', containsChanges && 'contains-changes', selected && 'selected']
    .filter(Boolean)
    .join(' ');
  return (
    <li
      role="treeitem"
      aria-expanded={isDir ? expanded : undefined}
      aria-selected={selected}
      className={classes}
      data-path={entry.path}
      data-changed={changed || undefined}
      style={{ paddingLeft: 6 + depth * 14 }}
    >
      {mode === 'rename' ? (
        <form
          className="inline-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void commitRename();
          }}
        >
          <input
            aria-label={`New name for ${name}`}
            value={newName}
            autoFocus
            onChange={(e) => setNewName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setMode('view')}
          />
          <button type="submit" className="small">
            Rename
          </button>
        </form>
      ) : mode === 'confirm-delete' ? (
        <span className="confirm" role="group" aria-label={`Delete ${name}?`}>
          <span className="small">
            Delete {isDir ? 'folder ' : ''}“{name}”?
          </span>
          <button
            className="small danger"
            onClick={() =>
              void useWorkspace
                .getState()
                .remove(entry.path)
                .then((ok) => ok || setMode('view'))
            }
          >
            Delete
          </button>
          <button className="small" autoFocus onClick={() => setMode('view')}>
            Cancel
          </button>
        </span>
      ) : (
        <>
          <button className="tree-name" onClick={activate} title={entry.path}>
            <span className="tree-icon" aria-hidden="true">
              {isDir ? expanded ? '▾' : '▸' : <Icon name={iconFor(name)} size={14} />}
            </span>
            <span className="tree-label">{name}</span>
            {changed && <span className="sr-only"> (changed by the last run)</span>}
          </button>
          {!isDir && <span className="tree-size muted">{formatBytes(entry.size)}</span>}
          <span className="row-actions">
            <button
              className="icon-button"
              aria-label={`Insert the path of ${name} into the message`}
              title="Insert path into the message"
              onClick={() => useComposer.getState().insert(entry.path)}
            >
              <Icon name="insert" size={14} />
            </button>
            {!isDir && (
              <button
                className="icon-button"
                aria-label={`Download ${name}`}
                title="Download (save a copy)"
                onClick={() => void downloadWorkspaceFile(entry.path)}
              >
                <Icon name="download" size={14} />
              </button>
            )}
            {!isDir && canOpenWith() && (
              <button
                className="icon-button"
                aria-label={`${openWithLabel()} ${name}`}
                title={openWithLabel()}
                onClick={() => void openWithOtherApp(entry.path)}
              >
                <Icon name="external" size={14} />
              </button>
            )}
            <button
              className="icon-button"
              aria-label={`Rename ${name}`}
              title="Rename"
              onClick={() => (setNewName(name), setMode('rename'))}
            >
              <Icon name="edit" size={14} />
            </button>
            <button className="icon-button" aria-label={`Delete ${name}`} title="Delete" onClick={() => setMode('confirm-delete')}>
              <Icon name="trash" size={14} />
            </button>
          </span>
        </>
      )}
    </li>
  );
});

function iconFor(name: string): IconName {
  if (/\.(png|jpe?g|gif|webp|svg|bmp)$/i.test(name)) return 'image';
  if (/\.ipynb$/i.test(name)) return 'notebook';
  if (/\.(csv|tsv|xlsx?)$/i.test(name)) return 'table';
  return 'file';
}
