import { useComposer } from '../../state/composer-store';
import { Icon } from '../common/Icon';
import { formatBytes } from '../common/use-now';

/** Files waiting to go with the next message: thumbnail, name, size, and why one failed. */
export function AttachmentChips() {
  const chips = useComposer((s) => s.chips);
  const remove = useComposer((s) => s.removeChip);
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Attachments for the next message" data-testid="attachment-chips">
      {chips.map((c) => (
        <li key={c.key} className={`chip chip-${c.state}`} data-testid="attachment-chip" data-state={c.state}>
          {c.thumbnail ? (
            <img className="chip-thumb" src={c.thumbnail} alt="" />
          ) : (
            <span className="chip-icon">
              <Icon name={c.name.endsWith('.ipynb') ? 'notebook' : 'file'} />
            </span>
          )}
          <span className="chip-name" title={c.attachment?.path ?? c.name}>
            {c.name}
          </span>
          <span className="muted small">{c.state === 'uploading' ? 'copying…' : formatBytes(c.size)}</span>
          {c.error && (
            <span className="chip-error" role="alert">
              {c.error}
            </span>
          )}
          <button className="icon-button" aria-label={`Remove ${c.name}`} onClick={() => remove(c.key)}>
            <Icon name="close" size={14} />
          </button>
        </li>
      ))}
    </ul>
  );
}
