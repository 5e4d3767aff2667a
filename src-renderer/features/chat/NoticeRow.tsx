import type { NoticeItem } from '@contract';
import { useApp } from '../../state/app-store';

/** App notices in the conversation; a failed model call offers a retry. */
export function NoticeRow({ item, canRetry }: { item: NoticeItem; canRetry: boolean }) {
  const retry = useApp((s) => s.regenerate);
  return (
    <div className={`notice notice-${item.level}`} role={item.level === 'error' ? 'alert' : 'note'} data-testid="notice">
      <span>{item.text}</span>
      {canRetry && (
        <button className="small" onClick={() => void retry()}>
          Retry
        </button>
      )}
    </div>
  );
}
