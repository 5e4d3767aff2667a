import type { AssistantItem } from '@contract';
import { useApp } from '../../state/app-store';
import { CopyButton } from '../common/CopyButton';
import { Markdown } from './Markdown';

export function AssistantMessage({ item, canRegenerate }: { item: AssistantItem; canRegenerate: boolean }) {
  const regenerate = useApp((s) => s.regenerate);
  if (!item.text && !item.interrupted) return null;
  return (
    <div className="msg msg-assistant" data-testid="assistant-message">
      <Markdown text={item.text} />
      {item.interrupted && <div className="muted small">(interrupted)</div>}
      <div className="msg-actions">
        <CopyButton text={item.text} label="Copy answer" className="small ghost" />
        {canRegenerate && (
          <button className="small ghost" title="Ask the model for a new answer" onClick={() => void regenerate()}>
            Regenerate
          </button>
        )}
      </div>
    </div>
  );
}
