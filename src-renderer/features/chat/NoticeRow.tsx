import type { NoticeItem } from '@contract';
import { useApp } from '../../state/app-store';

/** App notices in the conversation; a failed model call offers a retry. */
export function NoticeRow({ item, canRetry }: { item: NoticeItem; canRetry: boolean }) {
  const retry = useApp((s) => s.regenerate);
  const setScreen = useApp((s) => s.setScreen);
  return (
    <div className={`notice notice-${item.level}`} role={item.level === 'error' ? 'alert' : 'note'} data-testid="notice">
      <span>{item.text}</span>
      {item.schedule && (
        // A task the person approved here: the Schedules screen lists it, with its runs.
        <button className="small" onClick={() => setScreen('schedules')}>
          Open in Schedules
        </button>
      )}
      {canRetry && (
        <button className="small" onClick={() => void retry()}>
          Retry
        </button>
      )}
    </div>
  );
}
