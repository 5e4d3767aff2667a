import type { AssistantItem } from '@contract';
import { useApp } from '../../state/app-store';
import { CopyButton } from '../common/CopyButton';
import { Markdown } from '../markdown/Markdown';
import { ThinkingBlock } from './ThinkingBlock';
import { visibleThinking } from './visible-thinking';

export function AssistantMessage({ item, canRegenerate }: { item: AssistantItem; canRegenerate: boolean }) {
  const regenerate = useApp((s) => s.regenerate);
  const thinking = visibleThinking(item.thinking);
  if (!item.text && !item.interrupted && thinking.length === 0) return null;
  // A block gets its signature when it ends; until then (and unless the stream was cut) it is still being written.
  const thinkingLive = !item.interrupted && item.thinking.some((block) => block.signature === '');
  return (
    <div className="msg msg-assistant" data-testid="assistant-message">
      <ThinkingBlock texts={thinking} streaming={thinkingLive} />
      {item.text && <Markdown text={item.text} />}
      {item.interrupted && <div className="muted small">(interrupted)</div>}
      {(item.text || canRegenerate) && (
        <div className="msg-actions">
          {item.text && <CopyButton text={item.text} label="Copy answer" className="small ghost" />}
          {canRegenerate && (
            <button className="small ghost" title="Ask the model for a new answer" onClick={() => void regenerate()}>
              Regenerate
            </button>
          )}
        </div>
      )}
    </div>
  );
}
