import { useCallback, useRef, useState } from 'react';
import type { SandboxStatus, Settings } from '@contract';
import { useDismiss } from '../common/use-dismiss';
import { useSandboxStatus } from './use-sandbox-status';
import './sandbox.css';

/**
 * The sandbox as it really holds on this machine, from main's sandbox.status — the setting alone could
 * promise protections the machine cannot give. A click lists what is protected and what is not.
 */
export function SandboxBadge({ sandbox }: { sandbox: Settings['sandbox'] }) {
  const status = useSandboxStatus();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, box, close);

  const unavailable = sandbox.enabled && status !== null && !status.available;
  const text = !sandbox.enabled ? 'No sandbox' : unavailable ? 'Sandbox unavailable' : 'Sandbox on';
  const detail = summary(sandbox.enabled, status);
  return (
    <span className="sandbox-chip" ref={box}>
      <button
        className={`badge ${unavailable ? 'badge-warn' : sandbox.enabled ? 'badge-on' : 'badge-off'}`}
        title={detail}
        aria-label={`${text}: ${detail}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="sandbox-state"
        onClick={() => setOpen(!open)}
      >
        {text}
      </button>
      {open && <SandboxDetails status={status} />}
    </span>
  );
}

function SandboxDetails({ status }: { status: SandboxStatus | null }) {
  if (!status) return <div className="popover sandbox-details muted small">Checking the sandbox…</div>;
  return (
    <div className="popover sandbox-details" role="dialog" aria-label="What the sandbox protects" data-testid="sandbox-details">
      {/* With the sandbox working, the lists below say it all; otherwise the sentence the confirmation shows. */}
      <p className="sandbox-headline">
        {status.enabled && status.available ? `Sandbox on (${status.tool ?? 'sandbox'})` : status.autoRunWarning}
      </p>
      {status.protections.length > 0 && <PhraseList title="Protected" phrases={status.protections} testId="sandbox-protected" />}
      {status.notProtected.length > 0 && <PhraseList title="Not protected" phrases={status.notProtected} testId="sandbox-not-protected" />}
      {!status.enabled && (
        <p className="muted small">
          {status.available
            ? `${status.tool ?? 'A sandbox'} is available here: turn it on in Settings → Sandbox.`
            : // main's sentence: why, and where docs/sandbox.md says how to enable it
              (status.reason ?? 'No sandbox on this machine.')}
        </p>
      )}
    </div>
  );
}

function PhraseList({ title, phrases, testId }: { title: string; phrases: string[]; testId: string }) {
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      <ul data-testid={testId}>
        {phrases.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </section>
  );
}

function summary(enabled: boolean, status: SandboxStatus | null): string {
  if (!status) return enabled ? 'Code runs in a sandbox' : 'Code runs with your user’s permissions';
  if (!enabled) return 'Code runs with your user’s permissions';
  if (!status.available) return `The sandbox is on but unavailable, so nothing runs: ${status.reason ?? 'unsupported'}`;
  return `Active protections — ${status.description ?? status.tool ?? 'sandbox'}`;
}
