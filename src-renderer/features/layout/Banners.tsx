import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';

/** The latest error and start-up notices (settings reset, no keychain), each dismissable. */
export function Banners() {
  const error = useApp((s) => s.error);
  const notices = useApp((s) => s.notices);
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
      {notices.map((n, i) => (
        <div key={i} className="banner banner-notice" role="status">
          <span>{n}</span>
          <button className="icon-button" onClick={() => dismissNotice(i)} aria-label="Dismiss the notice">
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </>
  );
}
