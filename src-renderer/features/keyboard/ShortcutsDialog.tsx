import { useEffect, useRef } from 'react';
import { useShortcutHelp } from './shortcut-help';
import { listedShortcuts } from './shortcuts';

/** The list of every shortcut (Ctrl/⌘+/ or ?); Esc, the close button or a click outside closes it. */
export function ShortcutsDialog() {
  const open = useShortcutHelp((s) => s.open);
  const close = useShortcutHelp((s) => s.close);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) button.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="modal shortcuts"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), close())}
      >
        <h1 id="shortcuts-title">Keyboard shortcuts</h1>
        <table className="shortcut-table" data-testid="shortcut-list">
          <tbody>
            {listedShortcuts().map((s, i) => (
              <tr key={i}>
                <td>
                  {s.keys.map((k, j) => (
                    <span key={k}>
                      {j > 0 && ' or '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row end">
          <button ref={button} onClick={close}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
