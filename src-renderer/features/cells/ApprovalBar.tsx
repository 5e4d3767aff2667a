import { useEffect, useRef } from 'react';
import type { CellItem } from '@contract';
import { useApp } from '../../state/app-store';
import { hasCommandKey, isMac } from '../keyboard/platform';
import { alwaysAllowTool } from '../mcp/always-allow';

interface Props {
  cell: CellItem;
  editing: boolean;
  draft: string;
  onEdit(): void;
  onCancelEdit(): void;
}

/** Run, Edit then run, Skip, Always run in this conversation. Ctrl/⌘+Enter runs (the edit, if editing). */
export function ApprovalBar({ cell, editing, draft, onEdit, onCancelEdit }: Props) {
  const approve = useApp((s) => s.approve);
  const skip = useApp((s) => s.skip);
  const bar = useRef<HTMLDivElement>(null);
  const run = () => void approve(cell.id, editing ? draft : undefined);

  useEffect(() => {
    if (!editing) return;
    // While editing, Ctrl/⌘+Enter in the editor runs the edited code (not the model's original).
    const editor = bar.current?.parentElement?.querySelector('.cell-editor');
    const onKey = (e: Event) => {
      const k = e as KeyboardEvent;
      if (k.key === 'Enter' && hasCommandKey(k)) {
        k.preventDefault();
        void approve(cell.id, (editor as HTMLTextAreaElement | null)?.value ?? draft);
      } else if (k.key === 'Escape') onCancelEdit();
    };
    editor?.addEventListener('keydown', onKey);
    return () => editor?.removeEventListener('keydown', onKey);
  }, [editing, approve, cell.id, draft, onCancelEdit]);

  const mod = isMac() ? '⌘' : 'Ctrl';
  const mcpTool = cell.mcp;
  return (
    <div className="approval" role="group" aria-label="Approve this code" ref={bar}>
      <button className="primary" onClick={run} title={`${mod}+Enter`}>
        {editing ? 'Run edited code' : 'Run'}
      </button>
      {editing ? <button onClick={onCancelEdit}>Cancel edit</button> : <button onClick={onEdit}>Edit</button>}
      <button onClick={() => void skip(cell.id)}>Skip</button>
      {/* A computer action's "always" is the person's "allow for this task": this turn only (docs/computer-use.md). */}
      {cell.language === 'computer' ? (
        <button
          onClick={() => void approve(cell.id, editing ? draft : undefined, true)}
          title="Do this and the rest of this turn's screen actions without asking; the next turn asks again"
        >
          Allow for this task
        </button>
      ) : (
        <button
          onClick={() => void approve(cell.id, editing ? draft : undefined, true)}
          title="Run this and every later cell of this conversation without asking"
        >
          Always run here
        </button>
      )}
      {mcpTool && (
        <button
          onClick={() => void alwaysAllowTool(mcpTool).then(() => approve(cell.id, editing ? draft : undefined))}
          title="Run this and every later call of this tool without asking (Settings → MCP servers takes it back)"
        >
          Always allow {mcpTool.tool}
        </button>
      )}
      <span className="muted small hint">{mod}+Enter runs</span>
    </div>
  );
}
