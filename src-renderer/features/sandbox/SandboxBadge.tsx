import { useEffect, useState } from 'react';
import type { SandboxStatus, Settings } from '@contract';
import { bridge } from '../../bridge/bridge';

/**
 * The sandbox as it really holds on this machine, from main's sandbox.status: the same sentence every
 * sandboxed cell shows. The setting alone could promise protections the machine cannot give.
 */
export function SandboxBadge({ sandbox }: { sandbox: Settings['sandbox'] }) {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  // Asked again whenever the sandbox settings change (switch, network, extra paths).
  const key = JSON.stringify(sandbox);
  useEffect(() => {
    let current = true;
    bridge['sandbox.status']({}).then(
      (s) => current && setStatus(s),
      () => current && setStatus(null),
    );
    return () => {
      current = false;
    };
  }, [key]);

  const unavailable = sandbox.enabled && status !== null && !status.available;
  const text = !sandbox.enabled ? 'No sandbox' : unavailable ? 'Sandbox unavailable' : 'Sandbox on';
  const detail = describe(sandbox.enabled, status);
  return (
    <span
      className={`badge ${unavailable ? 'badge-warn' : sandbox.enabled ? 'badge-on' : 'badge-off'}`}
      title={detail}
      aria-label={`${text}: ${detail}`}
      role="status"
      data-testid="sandbox-state"
    >
      {text}
    </span>
  );
}

function describe(enabled: boolean, status: SandboxStatus | null): string {
  if (!status) return enabled ? 'Code runs in a sandbox' : 'Code runs with your user’s permissions';
  if (!enabled) {
    const offer = status.available ? `${status.tool ?? 'a sandbox'} is available: turn the sandbox on in Settings` : `no sandbox here: ${status.reason ?? 'unsupported'}`;
    return `Code runs with your user’s permissions (${offer})`;
  }
  if (!status.available) return `The sandbox is on but unavailable, so nothing runs: ${status.reason ?? 'unsupported'}`;
  return `Active protections — ${status.description ?? status.tool ?? 'sandbox'}`;
}
