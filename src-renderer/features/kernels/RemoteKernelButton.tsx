import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyNamed } from '../common/lazy-named';
import { useApp } from '../../state/app-store';
import { useKernels } from './kernel-store';
import { serverHost } from './server-host';
import './kernels.css';

const RemoteKernelPanel = lazyNamed(() => import('./RemoteKernelPanel'), 'RemoteKernelPanel');

/** The top bar's "where code runs" button: 'local' or the server's host; opens the remote kernel panel. */
export function RemoteKernelButton() {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const status = useKernels((s) => s.status);
  const refresh = useKernels((s) => s.refresh);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  // The binding belongs to the conversation, so the button follows the one shown; opening the panel
  // asks again, since a run may have started the kernel meanwhile.
  useEffect(() => {
    void refresh(conversationId);
  }, [conversationId, open, refresh]);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const where = status ? serverHost(status.url) : 'local';
  return (
    <div className="kernel-menu" ref={root}>
      <button
        className={`badge kernel-badge ${status ? 'badge-on' : ''}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Remote kernel: ${where}`}
        title={
          status
            ? `${status.language} runs on ${status.displayName} at ${status.url}`
            : 'Code runs on this machine; connect a Jupyter server to run it there'
        }
        data-testid="kernel-button"
        onClick={() => setOpen(!open)}
      >
        {where}
      </button>
      {open && (
        <Suspense fallback={null}>
          <RemoteKernelPanel />
        </Suspense>
      )}
    </div>
  );
}
