import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { noticeId } from '../../state/notice-id';

/** The latest error, and start-up notices (settings reset, no keychain): each dismissed once, for good. */
export function Banners() {
  // An error shows in the conversation it happened in, not in the others the person opens afterwards.
  const error = useApp((s) => (s.errorConversationId === null || s.errorConversationId === s.current?.conv.id ? s.error : null));
  const all = useApp((s) => s.notices);
  const dismissed = useApp((s) => s.settings?.dismissedNotices);
  const notices = dismissed ? all.filter((n) => !dismissed.includes(noticeId(n))) : [];
  const dismissError = useApp((s) => s.dismissError);
  const dismissNotice = useApp((s) => s.dismissNotice);
  return (
    <>
      {error && (
        <div className="banner banner-error" role="alert" data-testid="error-banner">
          <span>{error}</span>
          <button className="icon-button" onClick={dismissError} aria-label="Dismiss the error">
            <Icon name="close" size={14} />
          </button>
        </div>
      )}
      {notices.map((n) => (
        <div key={n} className="banner banner-notice" role="status" data-testid="notice-banner">
          <span>{n}</span>
          <button
            className="icon-button"
            onClick={() => dismissNotice(n)}
            aria-label="Dismiss the notice"
            title="Dismiss (it will not be shown again)"
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </>
  );
}
